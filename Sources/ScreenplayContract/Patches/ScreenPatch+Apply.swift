extension ScreenPatch {
    /// `document` with the operations applied in order; throws, naming the operation and path,
    /// when one does not fit the document (a member or id that is not there, an index out of
    /// range, an order that does not name every element once).
    public func applied(to document: JSONValue) throws(PatchError) -> JSONValue {
        var result = document
        for (number, operation) in operations.enumerated() {
            try Self.apply(operation, number: number, to: &result)
        }
        return result
    }

    private static func apply(_ operation: Operation, number: Int, to document: inout JSONValue) throws(PatchError) {
        switch operation {
        case .set(let path, let value):
            try update(&document, at: path[...], operation: number, path) { slot throws(PatchError) in slot = value }
        case .remove(let path):
            guard !path.isEmpty else { throw PatchError(operation: number, path: "", message: "the document itself cannot be removed") }
            try update(&document, at: path[...], operation: number, path) { slot throws(PatchError) in
                guard slot != nil else { throw PatchError(operation: number, path: readable(path), message: "there is nothing to remove") }
                slot = nil
            }
        case .insert(let path, let index, let value):
            try update(&document, at: path[...], operation: number, path) { slot throws(PatchError) in
                guard case .array(var elements)? = slot else { throw PatchError(operation: number, path: readable(path), message: "is not a list") }
                guard index >= 0, index <= elements.count else {
                    throw PatchError(operation: number, path: readable(path), message: "index \(index) is outside 0…\(elements.count)")
                }
                guard case .object(let members) = value, case .string(let id)? = members["id"] else {
                    throw PatchError(operation: number, path: readable(path), message: "an inserted element needs a string id")
                }
                guard !elements.contains(where: { element in element.objectValue?["id"] == .string(id) }) else {
                    throw PatchError(operation: number, path: readable(path), message: "the list already holds id '\(id)'")
                }
                elements.insert(value, at: index)
                slot = .array(elements)
            }
        case .order(let path, let ids):
            try update(&document, at: path[...], operation: number, path) { slot throws(PatchError) in
                guard case .array(let elements)? = slot, let current = keys(of: elements) else {
                    throw PatchError(operation: number, path: readable(path), message: "is not a keyed list")
                }
                guard ids.count == current.count, Set(ids) == Set(current) else {
                    throw PatchError(operation: number, path: readable(path), message: "the order names \(ids.count) ids; the list holds \(current.count) others")
                }
                var byID: [String: JSONValue] = [:]
                for (index, id) in current.enumerated() { byID[id] = elements[index] }
                slot = .array(ids.compactMap { byID[$0] })
            }
        }
    }

    /// Runs `change` on the value at `path` inside `value` (`nil`: absent), writing back what it
    /// leaves there (`nil`: removed).
    private static func update(
        _ value: inout JSONValue, at path: ArraySlice<Step>, operation: Int, _ whole: [Step],
        _ change: (inout JSONValue?) throws(PatchError) -> Void
    ) throws(PatchError) {
        func failure(_ message: String) -> PatchError {
            PatchError(operation: operation, path: readable(whole[..<path.startIndex]) + (path.first.map { $0.readable } ?? ""), message: message)
        }
        guard let step = path.first else {
            var slot: JSONValue? = value
            try change(&slot)
            guard let slot else { throw failure("the document itself cannot be removed") }
            value = slot
            return
        }
        let rest = path.dropFirst()
        switch (step, value) {
        case (.key(let key), .object(var members)):
            value = .null  // drop the reference so the members are changed in place
            defer { value = .object(members) }
            if rest.isEmpty {
                var slot = members[key]
                try change(&slot)
                members[key] = slot
            } else {
                guard var child = members[key] else { throw failure("there is no member '\(key)'") }
                members[key] = nil
                defer { members[key] = child }
                try update(&child, at: rest, operation: operation, whole, change)
            }
        case (.index(let index), .array(var elements)):
            guard elements.indices.contains(index) else { throw failure("index \(index) is outside a list of \(elements.count)") }
            value = .null
            defer { value = .array(elements) }
            if rest.isEmpty {
                var slot: JSONValue? = elements[index]
                try change(&slot)
                guard let slot else { throw failure("an indexed element cannot be removed; replace the list") }
                elements[index] = slot
            } else {
                try update(&elements[index], at: rest, operation: operation, whole, change)
            }
        case (.id(let id), .array(var elements)):
            guard let index = elements.firstIndex(where: { $0.objectValue?["id"] == .string(id) }) else {
                throw failure("the list holds no element with id '\(id)'")
            }
            value = .null
            defer { value = .array(elements) }
            if rest.isEmpty {
                var slot: JSONValue? = elements[index]
                try change(&slot)
                if let slot {
                    guard slot.objectValue?["id"] == .string(id) else { throw failure("a keyed element must keep its id '\(id)'") }
                    elements[index] = slot
                } else {
                    elements.remove(at: index)
                }
            } else {
                try update(&elements[index], at: rest, operation: operation, whole, change)
            }
        case (.key, _):
            throw failure("is not an object")
        case (.index, _), (.id, _):
            throw failure("is not a list")
        }
    }
}
