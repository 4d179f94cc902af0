#if canImport(SwiftUI)
public import SwiftUI
public import ScreenplayClient
import ScreenplayContract

/// Draws the top screen of a ``ScreenNavigator`` with SwiftUI.
///
/// Deliberately thin: every decision (states, navigation, command results) lives in the client
/// core, which Linux tests cover; this file maps state to views and taps back to actions.
@MainActor
public struct ScreenView: View {
    @State private var snapshot: ScreenNavigator.Snapshot?
    let navigator: ScreenNavigator

    /// Shows `navigator`'s stack; call `navigator.start(at:)` to load the first screen.
    public init(navigator: ScreenNavigator) { self.navigator = navigator }

    /// The top screen in its current state: loading with its header, failed with retry, or loaded.
    public var body: some View {
        Group {
            if let entry = snapshot?.top {
                content(for: entry.state)
            } else {
                ProgressView()
            }
        }
        .task {
            let stream = AsyncStream<ScreenNavigator.Snapshot> { continuation in
                Task { await navigator.observe { continuation.yield($0) } }
            }
            for await next in stream { snapshot = next }
        }
    }

    @ViewBuilder
    private func content(for state: ScreenState) -> some View {
        switch state {
        case .loading(let header):
            VStack {
                if let header { Text(header.title).font(.largeTitle) }
                ProgressView()
            }
        case .failed(let header, let error):
            VStack {
                if let header { Text(header.title).font(.largeTitle) }
                Text(error.message)
                SwiftUI.Button("Retry") { Task { await navigator.retry() } }
            }
        case .loaded(let loaded):
            List(loaded.screen.sections) { section in
                SwiftUI.Section(section.header?.title ?? "") {
                    ForEach(Array(section.components.enumerated()), id: \.offset) { _, component in
                        ComponentView(component: component) { action in Task { await navigator.perform(action) } }
                    }
                }
            }
            .navigationTitle(loaded.screen.title)
        }
    }
}

/// One component; unknown kinds draw nothing.
struct ComponentView: View {
    let component: Component
    let perform: (Action) -> Void

    var body: some View {
        switch component {
        case .text(let text):
            SwiftUI.Text(text.text).font(.system(size: text.size ?? 17))
        case .paragraphs(let paragraphs):
            VStack(alignment: .leading) { ForEach(paragraphs.paragraphs, id: \.self) { SwiftUI.Text($0) } }
        case .listRow(let row):
            rowButton(title: row.title, subtitle: row.subtitle, action: row.action)
        case .detailButton(let button):
            rowButton(title: button.title, subtitle: button.subtitle, action: button.action)
        case .trackRow(let track):
            HStack {
                rowButton(title: track.title, subtitle: track.subtitle, action: track.action)
                if let duration = track.durationText { SwiftUI.Text(duration).foregroundStyle(.secondary) }
            }
        case .verticalStack(let stack):
            VStack { ForEach(Array(stack.children.enumerated()), id: \.offset) { ComponentView(component: $0.element, perform: perform) } }
        case .horizontalStack(let stack):
            HStack { ForEach(Array(stack.children.enumerated()), id: \.offset) { ComponentView(component: $0.element, perform: perform) } }
        case .button(let button):
            SwiftUI.Button(button.title) { perform(button.action) }
        default:
            EmptyView()
        }
    }

    private func rowButton(title: String, subtitle: String?, action: Action?) -> some View {
        SwiftUI.Button {
            if let action { perform(action) }
        } label: {
            VStack(alignment: .leading) {
                SwiftUI.Text(title)
                if let subtitle { SwiftUI.Text(subtitle).font(.caption).foregroundStyle(.secondary) }
            }
        }
    }
}
#endif
