import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayWeb

/// The preview as an app draws it: for iOS and Android, each column is a phone of that platform,
/// its screen drawn with the platform's tokens (colors, type scale, spacing, corner radii) in the
/// chosen appearance, light or dark, whatever the browser's own. Widgets the app cannot draw are
/// drawn as their fallback and labelled so; a widget whose provider failed is a marked box where
/// it would be, not a gap, so a failure reads as the provider's doing and not the layout's.
///
/// What is drawn is the web renderer's reading of the same resolved screen the app gets: the
/// components, their order, their texts and what a version falls back to are the app's; the look
/// is the platform's tokens, an approximation of its native controls.
extension AdminSite {
    /// A device the preview can frame.
    enum PreviewDevice: String {
        case ios, android

        /// The platform's name as people write it (the frame's width is the stylesheet's
        /// `--device-width`).
        var name: String { self == .ios ? "iOS" : "Android" }
    }

    /// The appearance a device preview is drawn in (`appearance` in the query): light unless dark.
    static func appearance(_ query: [String: String]) -> String { query["appearance"] == "dark" ? "dark" : "light" }

    /// `rendered` (the screen's HTML) in a phone of `device`, drawn `appearance`, named for
    /// `column` (Draft, Live).
    static func deviceFrame(_ rendered: String, device: PreviewDevice, appearance: String, column: String, version: Int) -> String {
        let label = "\(column) on \(device.name) at API version \(version), \(appearance)"
        return """
            <figure class="device device-\(device.rawValue)" data-appearance="\(appearance)" id="device-\(column.lowercased())">\
            <div class="device-status" aria-hidden="true"><span>9:41</span><span class="device-camera"></span><span>5G ▮</span></div>\
            <div class="rendered" tabindex="0" role="region" aria-label="\(HTML.escape(label))">\(rendered)</div>\
            <figcaption>\(HTML.escape(label))</figcaption></figure>
            """
    }

    /// `screen` with a marked box where each widget whose provider failed would be (in its
    /// template section, before the next widget the page shows), saying what failed.
    static func showingFailures(in screen: Screen, template: PageTemplate, reports: [WidgetReport]) -> Screen {
        let failed = Dictionary(
            reports.filter { WidgetFate.isProviderFailure($0.outcome) && !$0.outcome.isFallback }.map { ($0.instanceID, $0) },
            uniquingKeysWith: { first, _ in first })
        guard !failed.isEmpty else { return screen }
        var result = screen
        for (sectionIndex, section) in template.sections.enumerated() {
            for (position, instance) in section.widgets.enumerated() {
                guard let report = failed[instance.id] else { continue }
                let box = Component.text(.init("Provider failure: \(instance.id) (\(report.kind)) — \(WidgetFate.left(report.failure))"))
                    .id(failureID(instance.id))
                // The section as the page has it, made when the failure was all it would hold.
                let screenIndex: Int
                if let found = result.sections.firstIndex(where: { $0.id == section.id }) {
                    screenIndex = found
                } else {
                    let later = Set(template.sections.dropFirst(sectionIndex + 1).map(\.id))
                    screenIndex = result.sections.firstIndex { later.contains($0.id) } ?? result.sections.count
                    result.sections.insert(
                        ScreenSection(id: section.id, header: section.title.map { Component.SectionHeader(title: $0) }, components: []),
                        at: screenIndex)
                }
                // Before the first later widget of the section that the page shows.
                let following = Set(section.widgets.dropFirst(position + 1).map(\.id))
                let components = result.sections[screenIndex].components
                let at = components.firstIndex { $0.id.map(following.contains) ?? false } ?? components.count
                result.sections[screenIndex].components.insert(box, at: at)
            }
        }
        return result
    }

    /// The first API version whose components carry ids: where the preview can place its labels
    /// and failure boxes.
    static let firstVersionWithIDs = 4

    /// The id of the box standing for `instance`'s failed widget.
    /// (A space: no instance id holds one, so no real component shares it.)
    static func failureID(_ instance: String) -> String { "preview failure " + instance }

    /// Labels, in `screen`, before each widget drawn as its fallback (from `reports`), saying
    /// why, as text of the screen (read by everyone, and not squeezed into the widget's own
    /// layout). Only where the version sends component ids (4 and later): the table under the
    /// screen names every fallback in any version.
    static func labellingFallbacks(in screen: Screen, reports: [WidgetReport], catalog: WidgetCatalog?, version: Int, context: String) -> Screen {
        var labels: [String: String] = [:]
        for report in reports {
            switch report.outcome {
            case .fallback(.kindNotRendered):
                let versioning = catalog?[report.kind]?.versioning
                let instead = versioning?.fallback ?? "a simpler component"
                labels[report.instanceID] =
                    (versioning.map { $0.introduced.rawValue > version } ?? false)
                    ? "Fallback: \(context) cannot draw \(report.kind); shown as \(instead)"
                    : "Fallback: an app that draws \(report.kind) itself shows its own here; shown as \(instead)"
            case .fallback(.unavailable(let reason)):
                labels[report.instanceID] =
                    WidgetFate.isProviderFailure(report.outcome)
                    ? "Provider failure: \(WidgetFate.left(reason)); a stand-in shown"
                    : "A stand-in shown: \(WidgetFate.left(reason))"
            default:
                continue
            }
        }
        guard !labels.isEmpty else { return screen }
        var result = screen
        for index in result.sections.indices {
            var components: [Component] = []
            for component in result.sections[index].components {
                if let id = component.id, let words = labels[id] {
                    components.append(Component.text(.init(words)).id(fallbackLabelID(id)))
                }
                components.append(component)
            }
            result.sections[index].components = components
        }
        return result
    }

    /// The id of the label before `instance`'s fallback.
    /// (A space: no instance id holds one.)
    static func fallbackLabelID(_ instance: String) -> String { "preview fallback " + instance }

    /// The CSS marking, inside `column`'s rendered screen, each widget drawn as its fallback, its
    /// label, and each failure box.
    static func fateMarks(column: String, reports: [WidgetReport]) -> String {
        var css = ""
        let scope = "#preview-\(column) .rendered"
        for report in reports {
            let node = "\(scope) [data-node=\"id:\(cssString(report.instanceID))\"]"
            let label = "\(scope) [data-node=\"id:\(cssString(fallbackLabelID(report.instanceID)))\"]"
            switch report.outcome {
            case .fallback(.unavailable) where WidgetFate.isProviderFailure(report.outcome):
                css += "\(node){outline:2px dashed var(--mark-removed);outline-offset:2px}\(label){\(fallbackLabel);color:var(--mark-removed)}"
            case .fallback:
                css += "\(node){outline:2px dotted var(--mark-fallback);outline-offset:2px}\(label){\(fallbackLabel)}"
            default:
                if WidgetFate.isProviderFailure(report.outcome) {
                    css += "\(scope) [data-node=\"id:\(cssString(failureID(report.instanceID)))\"]{\(failureBox)}"
                }
            }
        }
        return css
    }

    static let fallbackLabel =
        "display:block;font:600 12px/1.3 system-ui,sans-serif;color:var(--mark-fallback);margin:10px 0 4px"
    static let failureBox =
        "display:block;border:2px dashed var(--mark-removed);border-radius:10px;padding:10px 12px;color:var(--mark-removed);font-weight:600;background:transparent"

    /// The phones: a frame, a status bar, and each platform's tokens in both appearances, set on the
    /// rendered screen over the site's own (every color pair at least 4.5:1).
    static let deviceStyle = """
        :root{--mark-fallback:#6b4fbb}@media (prefers-color-scheme:dark){:root{--mark-fallback:#c4b1ff}}
        .devices{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,300px),1fr));gap:24px;align-items:start}
        .device{box-sizing:border-box;margin:0 auto;width:min(100%,var(--device-width));border:10px solid #1c1c1e;background:#1c1c1e;box-shadow:0 8px 30px rgba(0,0,0,.25)}
        .device-ios{--device-width:410px;border-radius:48px}.device-android{--device-width:432px;border-radius:30px;border-color:#2b2930;background:#2b2930}
        .device .device-status{display:flex;justify-content:space-between;align-items:center;padding:10px 26px 8px;font:600 14px/1 system-ui,sans-serif}
        .device-camera{width:96px;height:26px;border-radius:14px;background:#000}.device-android .device-camera{width:12px;height:12px;border-radius:50%}
        .device .rendered{height:min(760px,80vh);max-height:none;overflow:auto;padding:4px 16px 28px;border:0;border-radius:0 0 38px 38px}
        .device-android .rendered{border-radius:0 0 20px 20px}
        .device figcaption{color:#e5e5ea;font:13px/1.3 system-ui,sans-serif;text-align:center;padding:8px 6px 2px}
        .device .device-status,.device .rendered{background:var(--device-bg);color:var(--device-fg)}
        .device .device-status{border-radius:38px 38px 0 0}.device-android .device-status{border-radius:20px 20px 0 0}
        .device-ios[data-appearance=light]{--device-bg:#f2f2f7;--device-fg:#000}
        .device-ios[data-appearance=dark]{--device-bg:#000;--device-fg:#fff}
        .device-android[data-appearance=light]{--device-bg:#fef7ff;--device-fg:#1d1b20}
        .device-android[data-appearance=dark]{--device-bg:#141218;--device-fg:#e6e0e9}
        .device[data-appearance=light] .rendered{color-scheme:light;--sp-positive:#187a34;--sp-negative:#c62828;--sp-notice-bg:#e6f4ea;--sp-notice-text:#14532d;\
        --sp-error-bg:#fdecea;--sp-error-text:#8e1c1c;--sp-shadow:0 1px 4px rgba(0,0,0,.12);--mark-fallback:#5b3fb0;--mark-removed:#b3261e;\
        --mark-added:#1a7f37;--mark-moved:#0b57d0;--mark-changed:#8a5a00}
        .device[data-appearance=dark] .rendered{color-scheme:dark;--sp-positive:#4ade80;--sp-negative:#f87171;--sp-notice-bg:#12301c;--sp-notice-text:#c6f6d5;\
        --sp-error-bg:#3b1518;--sp-error-text:#ffd5d5;--sp-shadow:none;--mark-fallback:#c4b1ff;--mark-removed:#ff7b72;\
        --mark-added:#56d364;--mark-moved:#79b8ff;--mark-changed:#e3b341}
        .device-ios .rendered{font-family:-apple-system,"SF Pro Text","Helvetica Neue",system-ui,sans-serif;font-size:17px;letter-spacing:-.01em}
        .device-ios[data-appearance=light] .rendered{--sp-primaryText:#000;--sp-secondaryText:#6c6c70;--sp-accent:#0062cc;--sp-background:#f2f2f7;\
        --sp-surface:#fff;--sp-border:rgba(60,60,67,.29);--sp-on-accent:#fff}
        .device-ios[data-appearance=dark] .rendered{--sp-primaryText:#fff;--sp-secondaryText:#aeaeb2;--sp-accent:#0a84ff;--sp-background:#000;\
        --sp-surface:#1c1c1e;--sp-border:rgba(84,84,88,.65);--sp-on-accent:#000}
        .device-ios .rendered h1{font-size:34px;font-weight:700;letter-spacing:.01em}
        .device-ios .rendered section>h2,.device-ios .rendered .heading h2{font-size:22px;font-weight:700}
        .device-ios .rendered .row{padding:11px 0}.device-ios .rendered .row .title{font-size:17px}
        .device-ios .rendered .subtitle{font-size:15px}
        .device-ios .rendered .action,.device-ios .rendered button{border-radius:10px}
        .device-android .rendered{font-family:Roboto,"Noto Sans","Google Sans",system-ui,sans-serif;font-size:16px;letter-spacing:.01em}
        .device-android[data-appearance=light] .rendered{--sp-primaryText:#1d1b20;--sp-secondaryText:#49454f;--sp-accent:#6750a4;--sp-background:#fef7ff;\
        --sp-surface:#f3edf7;--sp-border:#cac4d0;--sp-on-accent:#fff}
        .device-android[data-appearance=dark] .rendered{--sp-primaryText:#e6e0e9;--sp-secondaryText:#cac4d0;--sp-accent:#d0bcff;--sp-background:#141218;\
        --sp-surface:#211f26;--sp-border:#49454f;--sp-on-accent:#381e72}
        .device-android .rendered h1{font-size:28px;font-weight:400}
        .device-android .rendered section>h2,.device-android .rendered .heading h2{font-size:22px;font-weight:400}
        .device-android .rendered .row{padding:12px 0}.device-android .rendered .row .title{font-size:16px}
        .device-android .rendered .subtitle{font-size:14px}
        .device-android .rendered .action,.device-android .rendered button{border-radius:20px}
        """
}

extension WidgetOutcome {
    /// Whether a fallback stands in the widget's place.
    var isFallback: Bool {
        if case .fallback = self { return true }
        return false
    }
}

extension WidgetReport {
    /// Why the widget is not on the page as its provider would have sent it (`.disabled` when it is).
    var failure: OmissionReason {
        switch outcome {
        case .omitted(let reason), .fallback(.unavailable(let reason)): reason
        default: .disabled
        }
    }
}
