import Foundation
import ScreenplayContract
import Testing

@Suite("Lossy decoding")
struct LossyDecodingTests {
    @Suite("Missing and mistyped fields")
    struct InvalidElements {
        @Test("A track row without a title is skipped; its neighbours stay in order")
        func missingTitle() throws {
            let (components, issues) = try Fixture.components(
                #"""
                {"type":"text","text":"before"},
                {"type":"trackRow","duration":461},
                {"type":"text","text":"after"}
                """#)
            #expect(components == [.text(.init("before")), .text(.init("after"))])
            #expect(
                issues == [
                    DecodingIssue(
                        kind: .invalidElement, path: "$.sections[0].components[1].title", message: "missing required field 'title'")
                ])
            #expect(issues.first?.description == "$.sections[0].components[1].title: missing required field 'title'")
        }

        @Test("A section whose id is a number is skipped; the next section survives")
        func sectionIDNumber() throws {
            let decoded = try Fixture.screen(
                #"""
                {"id":"s","title":"T","sections":[
                  {"id":"first","components":[{"type":"spacer"}]},
                  {"id":7,"components":[{"type":"spacer"}]},
                  {"id":"third","components":[]}
                ]}
                """#)
            #expect(decoded.value.sections.map(\.id) == ["first", "third"])
            #expect(decoded.issues.count == 1)
            let issue = try #require(decoded.issues.first)
            #expect(issue.kind == .invalidElement)
            #expect(issue.path == "$.sections[1].id")
            #expect(issue.message.hasPrefix("expected a string"))
        }

        @Test("A carousel item with a numeric title loses only that item")
        func carouselItem() throws {
            let (components, issues) = try Fixture.components(
                #"""
                {"type":"carousel","itemStyle":"portrait","items":[
                  {"title":"Bach"},{"title":1685},{"title":"Handel","subtitle":"1685"}
                ]}
                """#)
            #expect(
                components == [
                    .carousel(.init(itemStyle: .portrait, items: [.init(title: "Bach"), .init(title: "Handel", subtitle: "1685")]))
                ])
            #expect(issues.map(\.path) == ["$.sections[0].components[0].items[1].title"])
            #expect(issues.map(\.kind) == [.invalidElement])
            #expect(issues.first?.message.hasPrefix("expected a string") == true)
        }

        @Test("A carousel with an unknown item style keeps its items, shown as squares (an open enum)")
        func carouselStyle() throws {
            let (components, issues) = try Fixture.components(
                #"""
                {"type":"carousel","itemStyle":"hexagon","items":[{"title":"Bach"}]},{"type":"spacer","length":4}
                """#)
            #expect(components == [.carousel(.init(itemStyle: .square, items: [.init(title: "Bach")])), .spacer(.init(length: 4))])
            #expect(issues.map(\.path) == ["$.sections[0].components[0].itemStyle"])
            #expect(issues.map(\.kind) == [.unknownValue])
        }

        @Test("Menu and toolbar items with bad actions are skipped, the rest kept")
        func menuItems() throws {
            let decoded = try Fixture.screen(
                #"""
                {"id":"s","title":"T","sections":[],
                 "toolbar":[{"title":"Share","action":{"type":"share","title":"x","url":"file:///etc/passwd"}},
                            {"title":"Fav","icon":"heart","action":{"type":"command","url":"commands/fav"}}],
                 "menu":[{"title":"Broken","action":{"type":"navigate"}},
                         {"title":"No action"},
                         {"title":"Fine","action":{"type":"navigate","url":"screens/fine"}}]}
                """#)
            #expect(decoded.value.toolbar == [MenuItem(title: "Fav", icon: "heart", action: .command(.init(url: "commands/fav")))])
            #expect(decoded.value.menu == [MenuItem(title: "Fine", action: .navigate(.init(url: "screens/fine")))])
            #expect(decoded.issues.map(\.path) == ["$.toolbar[0].action.url", "$.menu[0].action.url", "$.menu[1].action"])
            #expect(
                decoded.issues.map(\.message) == [
                    "URL scheme 'file' is not allowed here (allowed: http, https, mailto, tel, or a relative path)",
                    "missing required field 'url'",
                    "missing required field 'action'",
                ])
        }

        @Test("A component that is not an object is skipped")
        func notAnObject() throws {
            let (components, issues) = try Fixture.components(#"42, "text", null, {"type":"spacer"}"#)
            #expect(components == [.spacer(.init())])
            #expect(issues.map(\.path) == ["$.sections[0].components[0]", "$.sections[0].components[1]", "$.sections[0].components[2]"])
            #expect(issues.allSatisfy { $0.kind == .invalidElement })
        }

        @Test("A component with no `type` is skipped with a message naming `type`")
        func missingType() throws {
            let (components, issues) = try Fixture.components(#"{"text":"orphan"},{"type":"text","text":"ok"}"#)
            #expect(components == [.text(.init("ok"))])
            #expect(
                issues == [
                    DecodingIssue(kind: .invalidElement, path: "$.sections[0].components[0].type", message: "missing required field 'type'")
                ])
        }

        @Test("A null required field says it found null")
        func nullRequired() throws {
            let (components, issues) = try Fixture.components(#"{"type":"listRow","title":null}"#)
            #expect(components.isEmpty)
            #expect(issues.map(\.path) == ["$.sections[0].components[0].title"])
            #expect(issues.first?.message == "expected a string, found null")
        }

        @Test("`components` is required (the schema says so too): a section without it is skipped and reported; absent menus are nil")
        func absentComponents() throws {
            let decoded = try Fixture.screen(
                #"{"id":"s","title":"T","sections":[{"id":"a"},{"id":"b","components":null},{"id":"c","components":[]}]}"#)
            #expect(decoded.value.sections == [ScreenSection(id: "c", components: [])])
            #expect(decoded.issues.map(\.path) == ["$.sections[0].components", "$.sections[1].components"])
            #expect(decoded.issues.first?.message == "missing required field 'components'")
            #expect(decoded.value.toolbar == nil)
            #expect(decoded.value.menu == nil)
        }
    }

    @Suite("Unknown kinds")
    struct UnknownKinds {
        @Test("Unknown kinds nested in stacks are kept with their JSON and reported at their path")
        func nestedInStacks() throws {
            let (components, issues) = try Fixture.components(
                #"""
                {"type":"verticalStack","children":[
                  {"type":"text","text":"a"},
                  {"type":"hologram","columns":3},
                  {"type":"horizontalStack","children":[{"type":"spacer"},{"type":"chart","values":[1,2.5]}]}
                ]}
                """#)
            let hologram = Component.unknown(.init(type: "hologram", json: ["type": "hologram", "columns": 3]))
            let chart = Component.unknown(.init(type: "chart", json: ["type": "chart", "values": [1, 2.5]]))
            #expect(
                components == [
                    .verticalStack(
                        .init(children: [
                            .text(.init("a")), hologram, .horizontalStack(.init(children: [.spacer(.init()), chart])),
                        ]))
                ])
            #expect(
                issues == [
                    DecodingIssue(
                        kind: .unknownKind, path: "$.sections[0].components[0].children[1]", message: "unknown component type 'hologram'"),
                    DecodingIssue(
                        kind: .unknownKind, path: "$.sections[0].components[0].children[2].children[1]",
                        message: "unknown component type 'chart'"),
                ])
        }

        @Test("An unknown action type keeps the component, holding the action as unknown")
        func unknownAction() throws {
            let (components, issues) = try Fixture.components(#"{"type":"button","title":"Go","action":{"type":"teleport","to":"moon"}}"#)
            #expect(
                components == [.button(.init(title: "Go", action: .unknown(type: "teleport", json: ["type": "teleport", "to": "moon"])))])
            #expect(
                issues == [
                    DecodingIssue(kind: .unknownKind, path: "$.sections[0].components[0].action", message: "unknown action type 'teleport'")
                ])
        }

        @Test("An unknown kind survives a re-encode unchanged")
        func reEncode() throws {
            let (components, _) = try Fixture.components(#"{"type":"hologram","columns":3,"cells":[{"t":"x"}]}"#)
            let bytes = try ScreenplayEncoder().encode(components)
            #expect(bytes.utf8Text == #"[{"cells":[{"t":"x"}],"columns":3,"type":"hologram"}]"#)
        }
    }

    @Suite("Contract rules")
    struct ContractRules {
        @Test("An invalid color string drops the component and quotes the text")
        func invalidColor() throws {
            let (components, issues) = try Fixture.components(
                ##"{"type":"text","text":"x","color":"not a color"},{"type":"text","text":"y","color":"#00FF00"}"##)
            #expect(components == [.text(.init("y", color: .rgb(0, 255, 0)))])
            #expect(issues.map(\.path) == ["$.sections[0].components[0].color"])
            #expect(issues.first?.message.contains("'not a color'") == true)
        }

        @Test("A rectangle 1e9 points wide is out of range", arguments: ["1e9", "-1", "10000.5"])
        func rectangleOutOfRange(width: String) throws {
            let (components, issues) = try Fixture.components(#"{"type":"rectangle","width":"# + width + #","height":2,"color":"accent"}"#)
            #expect(components.isEmpty)
            #expect(issues.map(\.path) == ["$.sections[0].components[0].width"])
            #expect(issues.first?.message.contains("expected 0...10000 points") == true)
            #expect(issues.first?.message.hasPrefix("'width' is ") == true)
        }

        @Test("Rectangle bounds are inclusive")
        func rectangleBounds() throws {
            let (components, issues) = try Fixture.components(#"{"type":"rectangle","width":0,"height":10000,"color":"accent"}"#)
            #expect(components == [.rectangle(.init(width: 0, height: 10_000, color: .token(.accent)))])
            #expect(issues.isEmpty)
        }

        @Test("A navigate to javascript: is refused, naming the scheme")
        func javascriptNavigate() throws {
            let (components, issues) = try Fixture.components(
                #"""
                {"type":"detailButton","title":"Evil","action":{"type":"navigate","url":"javascript:alert(1)"}},
                {"type":"listRow","title":"Also evil","action":{"type":"navigate","url":"JavaScript:alert(1)"}},
                {"type":"detailButton","title":"Good","action":{"type":"navigate","url":"screens/good"}}
                """#)
            #expect(components == [.detailButton(.init(title: "Good", action: .navigate(.init(url: "screens/good"))))])
            #expect(issues.map(\.path) == ["$.sections[0].components[0].action.url", "$.sections[0].components[1].action.url"])
            #expect(issues[0].message.contains("scheme 'javascript' is not allowed"))
            #expect(issues[1].message.contains("scheme 'JavaScript' is not allowed"))
        }

        @Test("A protocol-relative navigate is refused")
        func protocolRelative() throws {
            let (components, issues) = try Fixture.components(
                #"{"type":"sectionHeader","title":"X","action":{"type":"navigate","url":"//evil.example"}}"#)
            #expect(components.isEmpty)
            #expect(issues.map(\.path) == ["$.sections[0].components[0].action.url"])
            #expect(issues.first?.message.contains("protocol-relative") == true)
        }

        @Test("A data: image URL is refused, and so is a bad low-res URL")
        func dataImage() throws {
            let (components, issues) = try Fixture.components(
                #"""
                {"type":"image","image":{"url":"data:image/png;base64,iVBORw0KGgo="}},
                {"type":"image","image":{"url":"images/ok.png","lowResURL":"file:///tmp/x.png"}},
                {"type":"image","image":{"url":"images/ok.png","lowResURL":null,"alt":"OK"}}
                """#)
            #expect(components == [.image(.init(RemoteImage(url: "images/ok.png", alt: "OK")))])
            #expect(issues.map(\.path) == ["$.sections[0].components[0].image.url", "$.sections[0].components[1].image.lowResURL"])
            #expect(issues[0].message.contains("scheme 'data'"))
            #expect(issues[1].message.contains("scheme 'file'"))
        }

        @Test("A bad header image URL fails the whole screen: headers are not lossy")
        func headerNotLossy() {
            let error = #expect(throws: ScreenplayDecodingError.self) {
                try Fixture.screen(#"{"id":"s","title":"T","header":{"title":"H","image":{"url":"javascript:x"}},"sections":[]}"#)
            }
            #expect(error?.path == "$.header.image.url")
        }

        @Test("Issues come in document order across sections, stacks and menus")
        func documentOrder() throws {
            let decoded = try Fixture.screen(
                #"""
                {"id":"s","title":"T","sections":[
                  {"id":"a","components":[{"type":"nope"},{"type":"trackRow"}]},
                  {"id":"b","components":[{"type":"verticalStack","children":[{"type":"text"}]}]}
                 ],"menu":[{"title":"m","action":{"type":"later"}}]}
                """#)
            #expect(
                decoded.issues.map(\.path) == [
                    "$.sections[0].components[0]", "$.sections[0].components[1].title",
                    "$.sections[1].components[0].children[0].text", "$.menu[0].action",
                ])
            #expect(decoded.issues.map(\.kind) == [.unknownKind, .invalidElement, .invalidElement, .unknownKind])
            #expect(decoded.value.sections[1].components == [.verticalStack(.init(children: []))])
        }
    }
}

@Suite("Strict decoding")
struct StrictDecodingTests {
    @Test("The first bad element fails the whole decode with its path")
    func throwsWithPath() {
        let json = Fixture.screenJSON(components: #"{"type":"text","text":"a"},{"type":"trackRow","duration":60}"#)
        let error = #expect(throws: ScreenplayDecodingError.self) { try Fixture.screen(json, mode: .strict) }
        #expect(error?.path == "$.sections[0].components[1].title")
        #expect(error?.message == "missing required field 'title'")
    }

    @Test("A refused link fails strictly with the link's path and reason")
    func refusedLink() {
        let json = Fixture.screenJSON(
            components:
                #"{"type":"verticalStack","children":[{"type":"button","title":"x","action":{"type":"openURL","url":"javascript:alert(1)"}}]}"#
        )
        let error = #expect(throws: ScreenplayDecodingError.self) { try Fixture.screen(json, mode: .strict) }
        #expect(error?.path == "$.sections[0].components[0].children[0].action.url")
        #expect(error?.message.contains("'javascript'") == true)
        #expect(error?.description == "\(error?.path ?? ""): \(error?.message ?? "")")
    }

    @Test("A bad carousel item fails strictly")
    func carouselItem() {
        let json = Fixture.screenJSON(components: #"{"type":"carousel","itemStyle":"square","items":[{"title":1}]}"#)
        let error = #expect(throws: ScreenplayDecodingError.self) { try Fixture.screen(json, mode: .strict) }
        #expect(error?.path == "$.sections[0].components[0].items[0].title")
    }

    @Test("Unknown kinds are not errors in strict mode: kept and reported")
    func unknownKindsKept() throws {
        let json = Fixture.screenJSON(components: #"{"type":"hologram"}"#)
        let decoded = try Fixture.screen(json, mode: .strict)
        #expect(decoded.value.sections[0].components == [.unknown(.init(type: "hologram", json: ["type": "hologram"]))])
        #expect(decoded.issues.map(\.kind) == [.unknownKind])
    }

    @Test("Well-formed input decodes the same in both modes")
    func sameWhenValid() throws {
        let json = Fixture.screenJSON(components: #"{"type":"text","text":"a"},{"type":"spacer","length":3}"#)
        let lossy = try Fixture.screen(json, mode: .lossy)
        let strict = try Fixture.screen(json, mode: .strict)
        #expect(lossy == strict)
        #expect(strict.issues.isEmpty)
    }
}
