import Logging
import ScreenplayContract

extension Composer {
    /// The per-widget report, the budget verdict, and their log lines.
    func report(
        template: PageTemplate, plans: [WidgetPlan], bytes: [UInt8], context: CompositionContext, conflicts: [EntityConflict],
        problems: [String], exposures: [ExposedVariant], duration: Duration
    ) -> ComposedPage {
        let total = max(bytes.count, 1)
        let widgets = plans.map { plan -> WidgetReport in
            let outcome: WidgetOutcome
            var warnings: [WidgetProblem] = []
            switch plan.stage {
            case .fragment(_, let found, _):
                outcome = .shown
                warnings = found
            case .components(_, let reason):
                outcome = .fallback(reason)
            case .omitted(let reason), .failed(let reason):
                outcome = .omitted(reason)
            case .pending, .prepared:
                // Unreachable: every pending plan is called and every prepared one rendered.
                outcome = .omitted(.missingFromResponse)
            }
            return WidgetReport(
                instanceID: plan.instance.id, kind: plan.instance.kind, vertical: plan.instance.vertical, outcome: outcome,
                providerLatency: plan.latency, bytes: plan.bytes, share: Double(plan.bytes) / Double(total), warnings: warnings)
        }
        for widget in widgets { log(widget, route: template.route) }

        var overruns: [BudgetOverrun] = []
        let page = ComposedPage(
            bytes: bytes, apiVersion: context.apiVersion, route: template.route, templateRevision: template.revision, widgets: widgets,
            entityConflicts: conflicts, problems: problems, exposures: exposures, duration: duration, overruns: [])
        if let limit = configuration.budget.maximumBytes, bytes.count > limit {
            overruns.append(.bytes(bytes.count, limit: limit, heaviest: page.heaviestWidgets().map(\.instanceID)))
        }
        if let limit = configuration.budget.maximumDuration, duration > limit {
            overruns.append(.duration(duration, limit: limit, slowest: page.slowestWidgets().map(\.instanceID)))
        }
        for overrun in overruns {
            logger.warning(
                "composed page over budget",
                metadata: [
                    "route": "\(template.route)", "revision": "\(template.revision)", "apiVersion": "\(context.apiVersion)",
                    "overrun": "\(overrun)",
                ])
        }
        return ComposedPage(
            bytes: bytes, apiVersion: context.apiVersion, route: template.route, templateRevision: template.revision, widgets: widgets,
            entityConflicts: conflicts, problems: problems, exposures: exposures, duration: duration, overruns: overruns)
    }

    /// A failure is a warning naming the widget, its vertical, kind and reason; a widget kept off
    /// by its switch or conditions, or shown as a fallback to a client that cannot render it, is
    /// the page working as designed and logged at debug level.
    private func log(_ widget: WidgetReport, route: String) {
        var metadata: Logger.Metadata = [
            "route": "\(route)", "widget": "\(widget.instanceID)", "vertical": "\(widget.vertical)", "kind": "\(widget.kind)",
        ]
        if let latency = widget.providerLatency { metadata["latency"] = "\(latency.formattedMilliseconds)" }
        switch widget.outcome {
        case .shown:
            guard !widget.warnings.isEmpty else { return }
            metadata["warnings"] = "\(widget.warnings.map(\.description).joined(separator: "; "))"
            logger.notice("widget shown with contract warnings", metadata: metadata)
        case .fallback(.kindNotRendered):
            logger.debug("widget replaced by its fallback: the client does not render its kind", metadata: metadata)
        case .fallback(.unavailable(let reason)):
            metadata["reason"] = "\(reason)"
            logger.warning("widget unavailable; its fallback is shown", metadata: metadata)
        case .omitted(let reason):
            metadata["reason"] = "\(reason)"
            if reason.isExpected {
                logger.debug("widget not shown", metadata: metadata)
            } else {
                logger.warning("widget omitted", metadata: metadata)
            }
        }
    }
}
