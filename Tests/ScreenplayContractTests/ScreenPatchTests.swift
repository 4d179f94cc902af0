import Foundation
import ScreenplayContract
import Testing

/// Patches between versions of a screen's JSON: keyed lists by id, the wire form, and refusals
/// that name the operation and the path.
@Suite("Screen patches")
struct ScreenPatchTests {
    static func row(_ id: String, _ title: String, subtitle: String = "BWV 1007") -> JSONValue {
        ["id": .string(id), "type": "listRow", "title": .string(title), "subtitle": .string(subtitle)]
    }

    static func screen(_ rows: [JSONValue], title: String = "Works") -> JSONValue {
        ["id": "works", "title": .string(title), "sections": [["id": "list", "components": .array(rows)]]]
    }

    static let rows = (1...300).map { row("row/\($0)", "Work \($0)") }

    @Test("one changed row of 300 is one set, addressed by ids, that gives the new document")
    func oneRow() throws {
        var changed = Self.rows
        changed[150] = Self.row("row/151", "Work 151", subtitle: "BWV 1008")
        let before = Self.screen(Self.rows)
        let after = Self.screen(changed)
        let patch = ScreenPatch.between(before, after)
        #expect(patch.operations == [.set([.key("sections"), .id("list"), .key("components"), .id("row/151"), .key("subtitle")], "BWV 1008")])
        #expect(try patch.applied(to: before) == after)
        #expect(patch.json.canonicalBytes.count < 120, "\(patch.json.jsonText)")
        #expect(ScreenPatch.between(after, after).isEmpty)
    }

    @Test("removals, a reordering and insertions in one keyed list give the new order exactly")
    func keyedChanges() throws {
        let before = Self.screen(Self.rows.prefix(10).map { $0 })
        var rows = Array(Self.rows.prefix(10))
        rows.remove(at: 3)
        rows.swapAt(0, 5)
        rows.insert(Self.row("new/1", "First new"), at: 0)
        rows.insert(Self.row("new/2", "Second new"), at: 7)
        rows.append(Self.row("new/3", "Last new"))
        let after = Self.screen(rows, title: "Works (11)")
        let patch = ScreenPatch.between(before, after)
        #expect(patch.operations.contains { if case .order = $0 { true } else { false } })
        #expect(patch.operations.filter { if case .insert = $0 { true } else { false } }.count == 3)
        #expect(try patch.applied(to: before) == after)
        #expect(try ScreenPatch(json: patch.json) == patch, "the wire form reads back as the same patch")
    }

    @Test("random documents: applying the patch between any two gives the second, and the wire form reads back")
    func randomDocuments() throws {
        var generator = SeededGenerator(seed: 0x5eed)
        for round in 0..<400 {
            let before = Self.randomValue(depth: 0, using: &generator)
            let after = Self.mutate(before, depth: 0, using: &generator)
            let patch = ScreenPatch.between(before, after)
            #expect(try patch.applied(to: before) == after, "round \(round): \(patch.json.jsonText)")
            #expect(try ScreenPatch(json: patch.json) == patch, "round \(round)")
        }
    }

    @Test("a patch that does not fit is refused, naming the operation and the path")
    func refusals() throws {
        let document = Self.screen(Array(Self.rows.prefix(3)))
        func refusal(_ patch: ScreenPatch) -> PatchError? {
            do {
                _ = try patch.applied(to: document)
                return nil
            } catch {
                return error
            }
        }
        let list: [ScreenPatch.Step] = [.key("sections"), .id("list"), .key("components")]
        let missing = refusal(ScreenPatch(operations: [.set(list + [.id("row/1"), .key("title")], "A"), .remove(list + [.id("row/9")])]))
        #expect(missing?.operation == 1)
        #expect(missing?.path == "sections[id=list].components[id=row/9]", "\(String(describing: missing))")
        #expect(missing?.message.contains("no element with id 'row/9'") == true)
        #expect(refusal(ScreenPatch(operations: [.remove(list + [.id("row/1"), .key("nothing")])]))?.message == "there is nothing to remove")
        #expect(refusal(ScreenPatch(operations: [.order(list, ["row/1", "row/2"])]))?.message.contains("names 2 ids") == true)
        #expect(refusal(ScreenPatch(operations: [.insert(list, index: 1, Self.row("row/2", "again"))]))?.message.contains("already holds") == true)
        #expect(refusal(ScreenPatch(operations: [.insert(list, index: 9, Self.row("x", "x"))]))?.message.contains("outside 0…3") == true)
        #expect(refusal(ScreenPatch(operations: [.set([.key("title"), .key("deeper")], 1)]))?.message == "is not an object")
        #expect(refusal(ScreenPatch(operations: [.set(list + [.id("row/1")], Self.row("row/2", "other id"))]))?.message.contains("keep its id") == true)
        #expect(refusal(ScreenPatch(operations: [.remove([])]))?.message.contains("document itself") == true)
    }

    @Test("malformed wire forms are refused with what is wrong: unknown operations, bad paths, too deep, too many")
    func malformed() throws {
        func reading(_ text: String) -> PatchError? {
            do {
                _ = try ScreenPatch(json: try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
                return nil
            } catch let error as PatchError {
                return error
            } catch {
                Issue.record("not JSON: \(error)")
                return nil
            }
        }
        #expect(reading(#"{"set": 1}"#)?.message == "a patch is a list of operations")
        #expect(reading(#"[["move", ["a"]]]"#)?.message == "unknown operation 'move'")
        #expect(reading(#"[["set", ["a"]]]"#)?.message == "'set' with 1 arguments")
        #expect(reading(#"[["remove", [true]]]"#)?.message.contains("a step is a member name") == true)
        #expect(reading(#"[["remove", [{"id": 3}]]]"#)?.message.contains("a step is a member name") == true)
        #expect(reading(#"[["remove", [-1]]]"#) != nil)
        #expect(reading(#"[["insert", ["a"], "1", {}]]"#)?.message == "insert's index must be an integer")
        #expect(reading(#"[["order", ["a"], [1]]]"#)?.message == "order's ids must be a list of strings")
        let deep = "[[\"remove\", [" + Array(repeating: "\"a\"", count: ScreenPatch.depthLimit + 1).joined(separator: ",") + "]]]"
        #expect(reading(deep)?.message.contains("the limit is \(ScreenPatch.depthLimit)") == true)
        let many = "[" + Array(repeating: #"["remove", ["a"]]"#, count: ScreenPatch.operationLimit + 1).joined(separator: ",") + "]"
        #expect(reading(many)?.message.contains("the limit is \(ScreenPatch.operationLimit)") == true)
    }

    @Test("the tag of canonical bytes is the server's ETag; a gzip variant names the same content")
    func tags() {
        let bytes = Self.screen(Array(Self.rows.prefix(2))).canonicalBytes
        #expect(EntityTag.strong(for: bytes).hasPrefix("\"sp-"))
        #expect(EntityTag.strong(for: bytes) != EntityTag.strong(for: bytes + [0x20]))
        #expect(EntityTag.identity(of: "\"sp-0123456789abcdef-gz\"") == "\"sp-0123456789abcdef\"")
        #expect(EntityTag.identity(of: "\"sp-0123456789abcdef\"") == "\"sp-0123456789abcdef\"")
    }

    // MARK: - Random documents

    static func randomValue(depth: Int, using generator: inout SeededGenerator) -> JSONValue {
        let kind = depth > 3 ? Int.random(in: 0..<4, using: &generator) : Int.random(in: 0..<7, using: &generator)
        switch kind {
        case 0: return .integer(Int.random(in: -5...5, using: &generator))
        case 1: return .string(["a", "b", "c", "é", "/x"].randomElement(using: &generator)!)
        case 2: return .bool(Bool.random(using: &generator))
        case 3: return .null
        case 4: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) })
        case 5:
            // A keyed list.
            return .array(
                (0..<Int.random(in: 0...6, using: &generator)).map { index in
                    ["id": .string("k\(index)"), "v": randomValue(depth: depth + 1, using: &generator)]
                })
        default:
            var members: [String: JSONValue] = [:]
            for key in ["p", "q", "r", "s"] where Bool.random(using: &generator) { members[key] = randomValue(depth: depth + 1, using: &generator) }
            return .object(members)
        }
    }

    /// `value` with random changes: members added, removed and changed, keyed elements removed,
    /// moved, inserted and changed, lists grown and shrunk, values replaced by other kinds.
    static func mutate(_ value: JSONValue, depth: Int, using generator: inout SeededGenerator) -> JSONValue {
        if Int.random(in: 0..<8, using: &generator) == 0 { return randomValue(depth: depth, using: &generator) }
        switch value {
        case .object(var members):
            for key in members.keys.sorted() {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: members[key] = nil
                case 1: members[key] = mutate(members[key]!, depth: depth + 1, using: &generator)
                default: break
                }
            }
            if Bool.random(using: &generator) { members["t"] = randomValue(depth: depth + 1, using: &generator) }
            return .object(members)
        case .array(var elements):
            if ScreenPatchTests.isKeyed(elements) {
                elements = elements.filter { _ in Int.random(in: 0..<4, using: &generator) != 0 }
                if Bool.random(using: &generator) { elements.shuffle(using: &generator) }
                for index in elements.indices where Bool.random(using: &generator) {
                    guard case .object(var members) = elements[index] else { continue }
                    members["v"] = mutate(members["v"] ?? .null, depth: depth + 1, using: &generator)
                    elements[index] = .object(members)
                }
                for extra in 0..<Int.random(in: 0...2, using: &generator) {
                    elements.insert(["id": .string("n\(extra)"), "v": .integer(extra)], at: Int.random(in: 0...elements.count, using: &generator))
                }
                return .array(elements)
            }
            if Bool.random(using: &generator) { elements.append(randomValue(depth: depth + 1, using: &generator)) }
            return .array(elements.map { Bool.random(using: &generator) ? mutate($0, depth: depth + 1, using: &generator) : $0 })
        default:
            return Bool.random(using: &generator) ? randomValue(depth: depth, using: &generator) : value
        }
    }

    static func isKeyed(_ elements: [JSONValue]) -> Bool {
        !elements.isEmpty && elements.allSatisfy { if case .string? = $0.objectValue?["id"] { true } else { false } }
    }
}

/// A small deterministic generator (SplitMix64), so a failing round can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
