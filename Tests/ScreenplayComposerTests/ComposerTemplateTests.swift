import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("Composer: page templates and widget instances")
struct ComposerTemplateTests {
    static let page = template([
        .init(
            id: "top", title: "Today",
            widgets: [
                widget("hero", "banner", vertical: "marketing"),
                widget(
                    "tea", "productCard", vertical: "shop", parameters: ["productID": "42"],
                    conditions: .init(platforms: [.iOS], experiment: .init("hero", is: "b")), timeoutMilliseconds: 80),
            ]),
        .init(id: "more", widgets: [widget("reviews", "reviewSummary", vertical: "reviews", enabled: false)]),
    ])

    @Test("a template round-trips through JSON; defaults are left out of the stored document")
    func coding() throws {
        let data = try ScreenplayEncoder().encode(Self.page)
        #expect(try JSONDecoder().decode(PageTemplate.self, from: data) == Self.page)
        let stored = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(stored["sections"]?.arrayValue?[0]["widgets"]?.arrayValue?[0] == ["id": "hero", "kind": "banner", "vertical": "marketing"])
        #expect(stored["sections"]?.arrayValue?[1]["widgets"]?.arrayValue?[0]["enabled"] == false)
        let minimal = try JSONDecoder().decode(WidgetInstance.self, from: Data(#"{"id": "x", "kind": "banner", "vertical": "m"}"#.utf8))
        #expect(minimal == widget("x", "banner", vertical: "m"))
        #expect(minimal.isEnabled && minimal.conditions == .always && minimal.parameters == [:])
    }

    @Test("a well-formed template has no problems")
    func valid() {
        let problems = Self.page.validate(
            catalog: Widgets.catalog, verticals: ["marketing", "shop", "reviews"],
            experiments: ExperimentCatalog([Experiment(key: "hero", variants: [.init("a", weight: 1), .init("b", weight: 1)])]))
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test(
        "routes are plain lowercase paths; parameters nest at most 16 levels",
        arguments: [
            ("shop", true), ("shop/sale", true), ("new-arrivals_2", true), ("../etc", false), ("..", false), ("x//y", false),
            ("/shop", false), ("shop/", false), ("<script>", false), ("sh\u{043E}p", false), ("shop ", false), ("SHOP", false),
            ("a\u{0}b", false), (String(repeating: "a", count: 65), false),
        ])
    func routesAndDepth(route: String, valid: Bool) {
        var page = Self.page
        page.route = route
        let problems = page.validate(catalog: Widgets.catalog, verticals: ["marketing", "shop", "reviews"])
        #expect(problems.contains { $0.path == "$.route" } == !valid, "\(route.debugDescription): \(problems)")
        #expect(PageTemplate.routeProblem(route) == nil ? valid : !valid)

        var deep: JSONValue = "leaf"
        for _ in 0..<PageTemplate.maximumParameterDepth { deep = ["x": deep] }
        let nested = PageTemplate(
            route: "shop", title: "Shop", revision: 0,
            sections: [
                .init(
                    id: "s",
                    widgets: [
                        widget("ok", "banner", vertical: "marketing", parameters: deep),
                        widget("deep", "banner", vertical: "marketing", parameters: ["x": deep]),
                    ])
            ])
        let depthProblems = nested.validate(catalog: Widgets.catalog, verticals: ["marketing"]).filter { $0.message.contains("nested") }
        #expect(depthProblems.map(\.path) == ["$.sections[0].widgets[1].parameters"])
    }

    @Test("every problem is named with its JSON path")
    func problems() {
        let broken = PageTemplate(
            route: "", title: "Shop", revision: 3,
            sections: [
                .init(
                    id: "top",
                    widgets: [
                        widget("a", "banner", vertical: "marketing"),
                        widget("a", "banner", vertical: "marketing"),
                        widget("has space", "banner", vertical: "marketing"),
                        widget("b", "carousel3000", vertical: "marketing"),
                        widget("c", "banner", vertical: "astrology"),
                        widget("d", "productCard", vertical: "shop", parameters: ["showImage": "yes", "colour": "red"]),
                        widget("e", "banner", vertical: "marketing", conditions: .init(segments: []), timeoutMilliseconds: 0),
                    ]),
                .init(id: "top", widgets: []),
            ])
        let problems = broken.validate(catalog: Widgets.catalog, verticals: ["marketing", "shop"])
        #expect(
            problems.map(\.path) == [
                "$.route",
                "$.sections[0].widgets[1].id",
                "$.sections[0].widgets[2].id",
                "$.sections[0].widgets[3].kind",
                "$.sections[0].widgets[4].vertical",
                "$.sections[0].widgets[5].parameters.productID",
                "$.sections[0].widgets[5].parameters.showImage",
                "$.sections[0].widgets[5].parameters.colour",
                "$.sections[0].widgets[6].timeoutMilliseconds",
                "$.sections[0].widgets[6].conditions.segments",
                "$.sections[1].id",
            ], "\(problems)")
        #expect(
            problems.first { $0.path == "$.sections[0].widgets[1].id" }?.message.contains("first at $.sections[0].widgets[0].id") == true)
        #expect(problems.first { $0.path.hasSuffix("kind") }?.message.contains("known: banner, productCard, reviewSummary") == true)
        #expect(problems.filter(\.isWarning).map(\.path) == ["$.sections[0].widgets[5].parameters.colour"])
    }
}
