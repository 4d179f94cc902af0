import ScreenplayComposer
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore

/// The check the layout store cannot make: experiments that a template's conditions name must
/// exist (the store's validator knows the widget kinds, not the experiments). Run before a draft
/// is saved, by the API and by the pages alike.
enum ExperimentCheck {
    /// The errors about experiments in `template`'s conditions (unknown keys, unknown variants).
    static func problems(in template: PageTemplate, pages: ComposedScreens?, experiments: ExperimentStore) async throws -> [TemplateProblem]
    {
        guard let pages else { return [] }
        let known = try await experiments.catalog()
        return template.validate(catalog: pages.composer.catalog, verticals: Set(pages.composer.providers.keys), experiments: known)
            .filter { !$0.isWarning && $0.path.contains(".conditions.experiment") }
    }
}
