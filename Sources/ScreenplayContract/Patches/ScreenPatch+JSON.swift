extension ScreenPatch {
    /// The patch as its wire form: an array of operations (see ``ScreenPatch``).
    public var json: JSONValue {
        .array(
            operations.map { operation in
                switch operation {
                case .set(let path, let value): .array([.string("set"), Self.json(path), value])
                case .remove(let path): .array([.string("remove"), Self.json(path)])
                case .insert(let path, let index, let value): .array([.string("insert"), Self.json(path), .integer(index), value])
                case .order(let path, let ids): .array([.string("order"), Self.json(path), .array(ids.map(JSONValue.string))])
                }
            })
    }

    /// Reads a patch's wire form; throws, naming the operation, on anything else (an unknown
    /// operation, a malformed path, past ``operationLimit`` operations or ``depthLimit`` steps).
    public init(json: JSONValue) throws(PatchError) {
        guard case .array(let items) = json else { throw PatchError(operation: nil, path: "", message: "a patch is a list of operations") }
        guard items.count <= Self.operationLimit else {
            throw PatchError(operation: nil, path: "", message: "holds \(items.count) operations; the limit is \(Self.operationLimit)")
        }
        var operations: [Operation] = []
        operations.reserveCapacity(items.count)
        for (number, item) in items.enumerated() {
            func failure(_ message: String) -> PatchError { PatchError(operation: number, path: "", message: message) }
            guard case .array(let parts) = item, case .string(let name)? = parts.first, parts.count >= 2 else {
                throw failure("an operation is a list: its name, its path, then its arguments")
            }
            let path = try Self.path(parts[1], operation: number)
            switch (name, parts.count) {
            case ("set", 3): operations.append(.set(path, parts[2]))
            case ("remove", 2): operations.append(.remove(path))
            case ("insert", 4):
                guard case .integer(let index) = parts[2] else { throw failure("insert's index must be an integer") }
                operations.append(.insert(path, index: index, parts[3]))
            case ("order", 3):
                guard case .array(let values) = parts[2] else { throw failure("order's ids must be a list of strings") }
                var ids: [String] = []
                for value in values {
                    guard case .string(let id) = value else { throw failure("order's ids must be a list of strings") }
                    ids.append(id)
                }
                operations.append(.order(path, ids))
            case ("set", _), ("remove", _), ("insert", _), ("order", _):
                throw failure("'\(name)' with \(parts.count - 1) arguments")
            default:
                throw failure("unknown operation '\(name.prefix(40))'")
            }
        }
        self.init(operations: operations)
    }

    private static func isString(_ value: JSONValue?) -> Bool {
        if case .string? = value { true } else { false }
    }

    private static func json(_ path: [Step]) -> JSONValue {
        .array(
            path.map { step in
                switch step {
                case .key(let key): .string(key)
                case .index(let index): .integer(index)
                case .id(let id): .object(["id": .string(id)])
                }
            })
    }

    private static func path(_ value: JSONValue, operation: Int) throws(PatchError) -> [Step] {
        guard case .array(let steps) = value else { throw PatchError(operation: operation, path: "", message: "a path is a list of steps") }
        guard steps.count <= depthLimit else {
            throw PatchError(operation: operation, path: "", message: "a path of \(steps.count) steps; the limit is \(depthLimit)")
        }
        var path: [Step] = []
        for step in steps {
            switch step {
            case .string(let key): path.append(.key(key))
            case .integer(let index) where index >= 0: path.append(.index(index))
            case .object(let members) where members.count == 1 && Self.isString(members["id"]):
                guard case .string(let id)? = members["id"] else { continue }
                path.append(.id(id))
            default:
                throw PatchError(
                    operation: operation, path: readable(path), message: "a step is a member name, an index or {\"id\": …}, not \(step.jsonText.prefix(60))")
            }
        }
        return path
    }
}
