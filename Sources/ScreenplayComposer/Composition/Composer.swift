public import Logging
import ScreenplayContract
public import ScreenplayServer

/// Turns a page template into a screen for one request: evaluates each widget's conditions, asks
/// every vertical's provider for its widgets concurrently, each call under its own deadline,
/// checks every answer against its widget's contract, and splices the valid answers' bytes into
/// the encoded page.
///
/// The promise it keeps: **one slow or broken vertical never takes a page down.** A provider that
/// is slow, throws, never returns, answers malformed or contract-breaking JSON, or forgets an
/// instance costs exactly its own widgets: each is omitted (or replaced by its contract's
/// ``WidgetContract/unavailable`` components), reported in ``ComposedPage/widgets`` and logged
/// with its instance id, vertical and reason. ``compose(template:context:)`` cannot fail.
///
/// How the bytes are made: the page skeleton (id, title, sections, entities) is encoded by the
/// normal ``ScreenplayEncoder`` with one placeholder component per widget; each placeholder's
/// bytes are then replaced by the widget's bytes: a provider's fragment as it arrived (with the
/// `id` member inserted when it had none), or its fallback's encoding. Provider JSON is parsed to
/// be checked, never re-encoded, except for clients older than v4 when the fragment carries v4
/// attributes (`id`, `bind`, `accessibility`), which those clients must not receive.
public struct Composer: Sendable {
    /// How widgets are grouped into provider calls.
    public enum FanOut: Sendable, Hashable {
        /// One call per vertical with all its widgets on the page, under the vertical's timeout:
        /// fewest calls, and a provider can batch its own lookups.
        case perVertical
        /// One call per widget, each under the instance's own timeout (or its vertical's): a slow
        /// widget cannot hold back its siblings from the same vertical.
        case perWidget
    }

    /// Timeouts, limits and budget.
    public struct Configuration: Sendable {
        /// How widgets are grouped into calls.
        public var fanOut: FanOut
        /// How long a provider call may take unless its vertical (or, per widget, its instance)
        /// says otherwise. Counted from the start of composition, so the page is never later
        /// than the longest timeout plus the time to assemble it.
        public var defaultTimeout: Duration
        /// Timeouts by vertical.
        public var verticalTimeouts: [String: Duration]
        /// The page's byte and latency budget; pages over it are flagged and logged.
        public var budget: PageBudget
        /// The largest fragment accepted from a provider; larger ones are omitted unread.
        public var maximumFragmentBytes: Int
        /// The deepest nesting accepted in a fragment: widget JSON is shallow, and a deeply nested
        /// answer is refused before any decoder recurses into it.
        public var maximumFragmentDepth: Int
        /// App-defined kinds other than widgets that fallbacks may use, by wire name.
        public var customKinds: [String: CustomComponentKind]

        /// The defaults: one call per vertical, 300 ms each, 256 KiB and 64 levels per fragment,
        /// no budget.
        public init(
            fanOut: FanOut = .perVertical, defaultTimeout: Duration = .milliseconds(300), verticalTimeouts: [String: Duration] = [:],
            budget: PageBudget = .unlimited, maximumFragmentBytes: Int = 256 * 1024, maximumFragmentDepth: Int = 64,
            customKinds: [String: CustomComponentKind] = [:]
        ) {
            self.fanOut = fanOut
            self.defaultTimeout = defaultTimeout
            self.verticalTimeouts = verticalTimeouts
            self.budget = budget
            self.maximumFragmentBytes = maximumFragmentBytes
            self.maximumFragmentDepth = maximumFragmentDepth
            self.customKinds = customKinds
        }

        /// The timeout of a call to `vertical` (for `instance`, when fetched alone).
        func timeout(vertical: String, instance: WidgetInstance?) -> Duration {
            if let milliseconds = instance?.timeoutMilliseconds, milliseconds > 0 { return .milliseconds(milliseconds) }
            return verticalTimeouts[vertical] ?? defaultTimeout
        }
    }

    /// The widget kinds and their contracts.
    public let catalog: WidgetCatalog
    /// The providers, by vertical.
    public let providers: [String: any WidgetProvider]
    /// The configuration in force.
    public let configuration: Configuration
    /// Where experiment exposures go; `nil` records none.
    public let exposureRecorder: (any ExposureRecorder)?
    let logger: Logger

    /// A composer over `catalog` and `providers` (by vertical).
    public init(
        catalog: WidgetCatalog, providers: [String: any WidgetProvider], configuration: Configuration = .init(),
        exposureRecorder: (any ExposureRecorder)? = nil, logger: Logger = Logger(label: "screenplay.composer")
    ) {
        self.catalog = catalog
        self.providers = providers
        self.configuration = configuration
        self.exposureRecorder = exposureRecorder
        self.logger = logger
    }

    /// Every custom kind a composed page may contain: the widget kinds and the configured ones.
    var allCustomKinds: [String: CustomComponentKind] {
        configuration.customKinds.merging(catalog.customKinds) { _, widget in widget }
    }

    /// The page `template` as `context`'s client must receive it, with a report per widget.
    /// Never fails and never waits past the longest provider timeout.
    public func compose(template: PageTemplate, context: CompositionContext) async -> ComposedPage {
        let started = ContinuousClock.now
        var plans = plan(template, context: context)
        let exposures = plans.compactMap(\.exposure).uniqued()
        let calls = self.calls(for: plans)

        async let recording: Void = record(exposures, context: context, deadline: started + configuration.defaultTimeout)
        let results = await fanOut(calls, context: context, started: started)
        await recording

        var problems: [String] = []
        var answered: [(call: ProviderCall, response: WidgetResponse)] = []
        for (call, result) in zip(calls, results) {
            for index in call.planIndexes { plans[index].latency = result.latency }
            switch result.outcome {
            case .answered(let response):
                answered.append((call, response))
                let asked = Set(call.planIndexes.map { plans[$0].instance.id })
                for extra in response.fragments.keys.sorted() where !asked.contains(extra) {
                    let message = "vertical '\(call.vertical)' answered for '\(extra.prefix(128))', which it was not asked about; ignored"
                    problems.append(message)
                    logger.warning(
                        "provider answered for an instance it was not asked about",
                        metadata: ["vertical": "\(call.vertical)", "widget": "\(extra.prefix(128))"])
                }
                for index in call.planIndexes {
                    guard let fragment = response.fragments[plans[index].instance.id] else {
                        plans[index].stage = .failed(.missingFromResponse)
                        continue
                    }
                    plans[index].stage = prepare(fragment, plan: plans[index], version: context.apiVersion)
                }
            case .failed(let error):
                for index in call.planIndexes { plans[index].stage = .failed(.providerFailed(error)) }
            case .timedOut:
                for index in call.planIndexes { plans[index].stage = .failed(.timedOut(after: call.timeout)) }
            case .cancelled:
                for index in call.planIndexes { plans[index].stage = .failed(.cancelled) }
            }
        }

        let merged = mergeEntities(answered, problems: &problems)
        let downgrade = Downgrade(to: context.apiVersion, customKinds: allCustomKinds, clientKinds: context.clientKinds)
        for index in plans.indices {
            plans[index].stage = render(plans[index], context: context, entities: merged.entities, downgrade: downgrade)
        }

        let assembled = assemble(template: template, plans: &plans, entities: merged.entities, version: context.apiVersion)
        let duration = ContinuousClock.now - started
        return report(
            template: template, plans: plans, bytes: assembled, context: context, conflicts: merged.conflicts, problems: problems,
            exposures: exposures, duration: duration)
    }
}

// MARK: Planning

/// One widget instance on its way through a composition.
/// The widgets a request would ask for, in page order, and what it exposes: ``Composer/selection(_:context:)``.
struct WidgetSelection {
    /// Their ids.
    var shown: [String] = []
    /// Their verticals, in the same order.
    var verticals: [String] = []
    /// Whether one of them has data per user (its contract's sharing is not `everyone`).
    var perUser = false
    /// The experiments' variants the user is in, once each.
    var exposures: [ExposedVariant] = []
}

struct WidgetPlan {
    enum Stage {
        /// Waiting for its provider.
        case pending
        /// Answered and readable, not yet checked against entities and the contract.
        case prepared(PreparedFragment)
        /// Ready for the page: the bytes to splice (possibly rewritten for an old client), with
        /// the entities they bind to; or components to encode.
        case fragment(bytes: [UInt8], warnings: [WidgetProblem], entities: Set<String>)
        case components([Component], FallbackReason)
        /// Off the page, for a reason that may still have an `unavailable` fallback.
        case failed(OmissionReason)
        /// Off the page, final.
        case omitted(OmissionReason)
    }

    let instance: WidgetInstance
    let sectionIndex: Int
    let contract: WidgetContract?
    var exposure: ExposedVariant?
    var stage: Stage
    var latency: Duration?
    /// The bytes the widget occupies in the page, once assembled.
    var bytes = 0
}

/// A fragment that decoded as its client would decode it.
struct PreparedFragment {
    /// The bytes as they arrived (or as a ``JSONValue`` was encoded).
    var bytes: [UInt8]
    /// The object's members.
    var members: [String: JSONValue]
    /// Its `bind`, read from the JSON.
    var bindings: [String: EntityReference]
}

/// One provider call: a vertical and the plans it answers for.
struct ProviderCall {
    let vertical: String
    let provider: any WidgetProvider
    /// The plans it answers for, in page order.
    let planIndexes: [Int]
    /// Their instances, in the same order.
    let instances: [WidgetInstance]
    let timeout: Duration
}

extension Composer {
    /// One plan per instance in page order; those that cannot be shown without asking anyone
    /// (switched off, conditions unmet, unknown kind or vertical, malformed) are settled here.
    func plan(_ template: PageTemplate, context: CompositionContext) -> [WidgetPlan] {
        var plans: [WidgetPlan] = []
        var seen: Set<String> = []
        for (sectionIndex, section) in template.sections.enumerated() {
            for instance in section.widgets {
                let contract = catalog[instance.kind]
                var plan = WidgetPlan(instance: instance, sectionIndex: sectionIndex, contract: contract, stage: .pending)
                if !ValueRules.isIdentifier(instance.id, maximum: ValueRules.ComponentID.maximum) {
                    plan.stage = .omitted(.invalidInstance("'\(instance.id.prefix(40))' is not a component id"))
                } else if !seen.insert(instance.id).inserted {
                    plan.stage = .omitted(.invalidInstance("the id '\(instance.id)' is used twice on the page"))
                } else if !instance.isEnabled {
                    plan.stage = .omitted(.disabled)
                } else {
                    let verdict = instance.conditions.evaluate(in: context)
                    if context.userID != nil { plan.exposure = verdict.exposure }
                    if let mismatch = verdict.mismatch {
                        plan.stage = .omitted(.conditionNotMet(mismatch))
                    } else if contract == nil {
                        plan.stage = .omitted(.unknownKind)
                    } else if providers[instance.vertical] == nil {
                        plan.stage = .omitted(.noProvider)
                    }
                }
                plans.append(plan)
            }
        }
        return plans
    }

    /// What ``plan(_:context:)`` decides, without planning: the widgets a request would ask
    /// providers for (their ids, verticals and whether their data is per user) and the variants
    /// it exposes the user to. What a served page needs for its cache key on every request, hit
    /// or miss: it reads the template in place instead of copying each widget and contract into a
    /// plan, which on a publish heard by a thousand streams was a thousand copies of every widget
    /// (each copy a retain of every field, on objects all the cores share).
    func selection(_ template: PageTemplate, context: CompositionContext) -> WidgetSelection {
        var selection = WidgetSelection()
        var seen: Set<String> = []
        for sectionIndex in template.sections.indices {
            for widgetIndex in template.sections[sectionIndex].widgets.indices {
                let id = template.sections[sectionIndex].widgets[widgetIndex].id
                guard ValueRules.isIdentifier(id, maximum: ValueRules.ComponentID.maximum), seen.insert(id).inserted,
                    template.sections[sectionIndex].widgets[widgetIndex].isEnabled
                else { continue }
                let verdict = template.sections[sectionIndex].widgets[widgetIndex].conditions.evaluate(in: context)
                if context.userID != nil, let exposure = verdict.exposure { selection.exposures.append(exposure) }
                guard verdict.mismatch == nil else { continue }
                let kind = template.sections[sectionIndex].widgets[widgetIndex].kind
                let vertical = template.sections[sectionIndex].widgets[widgetIndex].vertical
                guard let sharing = catalog.sharing(of: kind), providers[vertical] != nil else { continue }
                selection.shown.append(id)
                selection.verticals.append(vertical)
                if sharing != .everyone { selection.perUser = true }
            }
        }
        selection.exposures = selection.exposures.uniqued()
        return selection
    }

    /// The provider calls for the pending plans, in page order of their first widget: one per
    /// vertical or one per widget, as configured.
    func calls(for plans: [WidgetPlan]) -> [ProviderCall] {
        var calls: [ProviderCall] = []
        var callOfVertical: [String: Int] = [:]
        for (index, plan) in plans.enumerated() {
            guard case .pending = plan.stage, let provider = providers[plan.instance.vertical] else { continue }
            let vertical = plan.instance.vertical
            switch configuration.fanOut {
            case .perWidget:
                calls.append(
                    ProviderCall(
                        vertical: vertical, provider: provider, planIndexes: [index], instances: [plan.instance],
                        timeout: configuration.timeout(vertical: vertical, instance: plan.instance)))
            case .perVertical:
                if let existing = callOfVertical[vertical] {
                    let call = calls[existing]
                    calls[existing] = ProviderCall(
                        vertical: vertical, provider: provider, planIndexes: call.planIndexes + [index],
                        instances: call.instances + [plan.instance], timeout: call.timeout)
                } else {
                    callOfVertical[vertical] = calls.count
                    calls.append(
                        ProviderCall(
                            vertical: vertical, provider: provider, planIndexes: [index], instances: [plan.instance],
                            timeout: configuration.timeout(vertical: vertical, instance: nil)))
                }
            }
        }
        return calls
    }

    /// Every call at once, each raced against its own deadline; results in call order.
    func fanOut(
        _ calls: [ProviderCall], context: CompositionContext, started: ContinuousClock.Instant
    ) async -> [(
        outcome: CallOutcome, latency: Duration
    )] {
        await withTaskGroup(of: (Int, CallOutcome, Duration).self) { group in
            for (index, call) in calls.enumerated() {
                let request = WidgetRequest(
                    vertical: call.vertical, instances: call.instances, context: context, deadline: started + call.timeout)
                let provider = call.provider
                group.addTask {
                    let callStarted = ContinuousClock.now
                    let outcome = await Composer.race(until: request.deadline) {
                        do {
                            return .answered(try await provider.fragments(for: request))
                        } catch {
                            return .failed(String(describing: error))
                        }
                    }
                    return (index, outcome, ContinuousClock.now - callStarted)
                }
            }
            var results = [(outcome: CallOutcome, latency: Duration)](repeating: (.cancelled, .zero), count: calls.count)
            for await (index, outcome, latency) in group { results[index] = (outcome, latency) }
            return results
        }
    }

    /// Records the exposures beside the provider calls, under the default deadline; a failing or
    /// slow recorder is logged and never delays or fails the page beyond that.
    func record(_ exposures: [ExposedVariant], context: CompositionContext, deadline: ContinuousClock.Instant) async {
        guard let recorder = exposureRecorder, let userID = context.userID, !exposures.isEmpty else { return }
        // Those the recorder knows are recorded cost nothing: no call, no race against the clock.
        let exposures = exposures.filter {
            !recorder.isKnownRecorded(Exposure(userID: userID, experiment: $0.experiment, variant: $0.variant, at: context.now))
        }
        guard !exposures.isEmpty else { return }
        let logger = self.logger
        let outcome = await Composer.race(until: deadline) {
            for exposure in exposures {
                do {
                    _ = try await recorder.recordFirstExposure(
                        Exposure(userID: userID, experiment: exposure.experiment, variant: exposure.variant, at: context.now))
                } catch {
                    logger.error(
                        "could not record an experiment exposure",
                        metadata: ["experiment": "\(exposure.experiment)", "variant": "\(exposure.variant)", "error": "\(error)"])
                }
            }
            return .answered(WidgetResponse(fragments: [:]))
        }
        if case .timedOut = outcome { logger.error("recording experiment exposures timed out", metadata: ["route": "\(context.route)"]) }
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each kept once.
    func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
