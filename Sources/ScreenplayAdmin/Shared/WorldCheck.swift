import ScreenplayComposer
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore

/// The checks the layout store cannot make, against the world rather than the contract: the
/// experiments a template's conditions name must exist, and so must the works (or whatever a
/// vertical owns) its parameters name, as each vertical's provider says. Run before a draft is
/// saved, by the API and by the pages alike.
enum WorldCheck {
    /// The errors about experiments in `template`'s conditions (unknown keys, unknown variants)
    /// and about parameters naming nothing; warnings for references a vertical could not check.
    static func problems(in template: PageTemplate, pages: ComposedScreens?, experiments: ExperimentStore) async throws -> [TemplateProblem]
    {
        guard let pages else { return [] }
        let known = try await experiments.catalog()
        let experimentProblems = template.validate(
            catalog: pages.composer.catalog, verticals: Set(pages.composer.providers.keys), experiments: known
        )
        .filter { !$0.isWarning && $0.path.contains(".conditions.experiment") }
        return experimentProblems + (await template.referenceProblems(catalog: pages.composer.catalog, providers: pages.composer.providers))
            + (await imageProblems(in: template, catalog: pages.composer.catalog))
    }

    /// An error for each image a widget's content names that does not load, as the app's
    /// ``ContentRules/imageCheck`` says (none when the app checks no images).
    static func imageProblems(in template: PageTemplate, catalog: WidgetCatalog) async -> [TemplateProblem] {
        guard let check = catalog.content.imageCheck else { return [] }
        var problems: [TemplateProblem] = []
        for (sectionIndex, section) in template.sections.enumerated() {
            for (index, instance) in section.widgets.enumerated() {
                for (path, url) in catalog[instance.kind]?.contentImages(instance.content) ?? [] {
                    if let problem = await check(url) {
                        problems.append(TemplateProblem(path: "$.sections[\(sectionIndex)].widgets[\(index)].content" + path.dropFirst(), message: problem))
                    }
                }
            }
        }
        return problems
    }
}
