extension ScreenPatch {
    /// The patch that turns `old` into `new`: keyed lists diffed by id (removals, one reordering
    /// when the remaining elements moved, insertions at their final positions, then each kept
    /// element's own changes), objects member by member, other arrays index by index when their
    /// length is unchanged, anything else replaced.
    public static func between(_ old: JSONValue, _ new: JSONValue) -> ScreenPatch {
        var operations: [Operation] = []
        diff(old, new, path: [], into: &operations)
        return ScreenPatch(operations: operations)
    }

    private static func diff(_ old: JSONValue, _ new: JSONValue, path: [Step], into operations: inout [Operation]) {
        guard old != new else { return }
        switch (old, new) {
        case (.object(let before), .object(let after)) where path.count < depthLimit:
            for key in before.keys.sorted() where after[key] == nil { operations.append(.remove(path + [.key(key)])) }
            for key in after.keys.sorted() {
                guard let value = after[key] else { continue }
                if let previous = before[key] {
                    diff(previous, value, path: path + [.key(key)], into: &operations)
                } else {
                    operations.append(.set(path + [.key(key)], value))
                }
            }
        case (.array(let before), .array(let after)) where path.count < depthLimit:
            if let beforeIDs = keys(of: before), let afterIDs = keys(of: after) {
                diffKeyed(before, beforeIDs, after, afterIDs, path: path, into: &operations)
            } else if before.count == after.count {
                for index in before.indices { diff(before[index], after[index], path: path + [.index(index)], into: &operations) }
            } else {
                operations.append(.set(path, new))
            }
        default:
            operations.append(.set(path, new))
        }
    }

    private static func diffKeyed(
        _ before: [JSONValue], _ beforeIDs: [String], _ after: [JSONValue], _ afterIDs: [String], path: [Step],
        into operations: inout [Operation]
    ) {
        let kept = Set(afterIDs)
        let existing = Set(beforeIDs)
        for id in beforeIDs where !kept.contains(id) { operations.append(.remove(path + [.id(id)])) }
        let remaining = beforeIDs.filter(kept.contains)
        let wanted = afterIDs.filter(existing.contains)
        if remaining != wanted { operations.append(.order(path, wanted)) }
        for (index, id) in afterIDs.enumerated() where !existing.contains(id) { operations.append(.insert(path, index: index, after[index])) }
        var previous: [String: JSONValue] = [:]
        for (index, id) in beforeIDs.enumerated() { previous[id] = before[index] }
        for (index, id) in afterIDs.enumerated() {
            guard let old = previous[id] else { continue }
            diff(old, after[index], path: path + [.id(id)], into: &operations)
        }
    }

    /// The ids of a keyed list: every element an object with a string `id`, each distinct;
    /// `nil` for any other array.
    static func keys(of elements: [JSONValue]) -> [String]? {
        var ids: [String] = []
        ids.reserveCapacity(elements.count)
        var seen = Set<String>()
        for element in elements {
            guard case .object(let members) = element, case .string(let id)? = members["id"], seen.insert(id).inserted else { return nil }
            ids.append(id)
        }
        return ids
    }
}
