import Foundation
import Logging
import ScreenplayContract
import ScreenplayServer

/// Assembling the page: the skeleton is encoded by the normal encoder with one placeholder per
/// widget, and each placeholder's bytes are replaced by the widget's.
///
/// Why this is safe: a placeholder is an unknown component whose whole JSON is
/// `{"type":"\u0000screenplay-slot:N"}`. The encoder writes it where the widget stands, as an
/// element of a `components` array, exactly as it writes it alone (sorted keys, no whitespace),
/// so its bytes are known in advance. They cannot occur by accident: text from elsewhere in the
/// page sits inside JSON strings, where the encoder escapes every quote, so an unescaped
/// `{"type":` only ever starts a real object; and no real kind's name starts with a NUL. Each
/// placeholder is searched for once, in document order, and must be found; the replacement is a
/// complete JSON value (a fragment) or a comma-separated run of them (a fallback's components),
/// which is what an array element may be replaced with. If a placeholder were ever missing, the
/// page is encoded the ordinary way instead (fragments decoded into components), so a bug here
/// costs speed, never a broken page.
extension Composer {
    /// The encoded page; sets each plan's `bytes`, and omits widgets whose fallback cannot be encoded.
    func assemble(template: PageTemplate, plans: inout [WidgetPlan], entities: Entities, version: APIVersion) -> [UInt8] {
        let encoder = ScreenplayEncoder(apiVersion: version)

        // Ids: the widget's own component has the instance id; a fallback's first component takes
        // it too, and the rest get the ids the service derives for any screen (from the section,
        // the kind and the component's identity key), unique across the page.
        // Composed pages are live (v5): a publish, a kill switch or an experiment change reaches
        // open clients through the event stream.
        var firstPass = Screen(id: template.route, title: template.title, sections: [], live: .events)
        var ranges: [(plan: Int, section: Int, range: Range<Int>)] = []
        for (sectionIndex, section) in template.sections.enumerated() {
            var components: [Component] = []
            for index in plans.indices where plans[index].sectionIndex == sectionIndex {
                let start = components.count
                switch plans[index].stage {
                case .fragment:
                    components.append(Self.placeholder(ranges.count).id(plans[index].instance.id))
                case .components(let fallback, _):
                    var fallback = fallback.map(Self.withoutIDs)
                    if !fallback.isEmpty { fallback[0].id = plans[index].instance.id }
                    components += fallback
                default:
                    continue
                }
                ranges.append((index, firstPass.sections.count, start..<components.count))
            }
            guard !components.isEmpty else { continue }
            firstPass.sections.append(
                ScreenSection(id: section.id, header: section.title.map { Component.SectionHeader(title: $0) }, components: components))
        }
        let identified = firstPass.assigningComponentIDs()

        // Each widget's bytes, then the skeleton with one placeholder per widget.
        var slots: [(plan: Int, bytes: [UInt8])] = []
        var skeleton = identified
        for section in skeleton.sections.indices { skeleton.sections[section].components = [] }
        for (plan, section, range) in ranges {
            let bytes: [UInt8]
            switch plans[plan].stage {
            case .fragment(let fragment, _, _):
                bytes = fragment
            case .components:
                do {
                    bytes = try Self.encodedRun(Array(identified.sections[section].components[range]), encoder: encoder)
                } catch {
                    plans[plan].stage = .omitted(.fallbackUnencodable("\(error)"))
                    continue
                }
            default:
                continue
            }
            skeleton.sections[section].components.append(Self.placeholder(slots.count))
            slots.append((plan, bytes))
        }
        skeleton.sections.removeAll { $0.components.isEmpty }
        skeleton.entities = Self.referenced(entities, plans: plans, screen: identified)

        do {
            let page = try splice(Array(encoder.encode(skeleton)), slots: slots.map(\.bytes), encoder: encoder)
            for slot in slots { plans[slot.plan].bytes = slot.bytes.count }
            return page
        } catch {
            logger.error(
                "splicing the composed page failed; encoding it whole instead",
                metadata: ["route": "\(template.route)", "error": "\(error)"])
            return encodeWhole(skeleton: skeleton, slots: slots, plans: &plans, encoder: encoder, template: template)
        }
    }

    /// The placeholder of slot `index`.
    static func placeholder(_ index: Int) -> Component {
        Component.custom("\u{0}screenplay-slot:\(index)", fields: [:])
    }

    /// `component` and its stack children with author ids removed: a fallback's ids are derived
    /// on the page, so they never collide with a widget's.
    static func withoutIDs(_ component: Component) -> Component {
        var component = component
        component.id = nil
        switch component.content {
        case .verticalStack(var stack):
            stack.children = stack.children.map(withoutIDs)
            component.content = .verticalStack(stack)
        case .horizontalStack(var stack):
            stack.children = stack.children.map(withoutIDs)
            component.content = .horizontalStack(stack)
        default:
            break
        }
        return component
    }

    /// Components encoded one by one and joined with commas: a run of array elements.
    static func encodedRun(_ components: [Component], encoder: ScreenplayEncoder) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, component) in components.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += try encoder.encode(component)
        }
        return bytes
    }

    /// Only the entities some component on the page binds to: the rest would be bytes no one reads.
    static func referenced(_ entities: Entities, plans: [WidgetPlan], screen: Screen) -> Entities {
        var used: Set<String> = []
        for component in screen.allComponents { for reference in component.attributes.bindings.values { used.insert(reference.entity) } }
        for plan in plans {
            if case .fragment(_, _, let bound) = plan.stage { used.formUnion(bound) }
        }
        return entities.filter { used.contains($0.key) }
    }

    /// The skeleton's bytes with every placeholder replaced by its slot's bytes, in order.
    func splice(_ skeleton: [UInt8], slots: [[UInt8]], encoder: ScreenplayEncoder) throws(SpliceError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(skeleton.count + slots.reduce(0) { $0 + $1.count })
        var position = skeleton.startIndex
        for (index, slot) in slots.enumerated() {
            guard let marker = try? Array(encoder.encode(Self.placeholder(index))),
                let found = skeleton[position...].firstRange(of: marker)
            else { throw SpliceError(slot: index) }
            result += skeleton[position..<found.lowerBound]
            result += slot
            position = found.upperBound
        }
        result += skeleton[position...]
        return result
    }

    /// The page encoded the ordinary way, fragments decoded into components: the safety net if
    /// a placeholder is ever not found.
    private func encodeWhole(
        skeleton: Screen, slots: [(plan: Int, bytes: [UInt8])], plans: inout [WidgetPlan], encoder: ScreenplayEncoder,
        template: PageTemplate
    ) -> [UInt8] {
        let decoder = ScreenplayDecoder(mode: .lossy, apiVersion: encoder.apiVersion, customKinds: Set(allCustomKinds.keys))
        var screen = skeleton
        var slot = 0
        for section in screen.sections.indices {
            screen.sections[section].components = screen.sections[section].components.flatMap { _ -> [Component] in
                defer { slot += 1 }
                let wrapped = Array("[".utf8) + slots[slot].bytes + Array("]".utf8)
                return (try? decoder.decode([Component].self, from: .init(wrapped)).value) ?? []
            }
        }
        do {
            let bytes = Array(try encoder.encode(screen))
            for slot in slots { plans[slot.plan].bytes = slot.bytes.count }
            return bytes
        } catch {
            logger.error("encoding the composed page failed", metadata: ["route": "\(template.route)", "error": "\(error)"])
            return Array(#"{"id":"composed","sections":[],"title":""}"#.utf8)
        }
    }
}

/// A placeholder was not where the skeleton should have it.
struct SpliceError: Error, CustomStringConvertible {
    let slot: Int
    var description: String { "placeholder \(slot) not found in the encoded skeleton" }
}
