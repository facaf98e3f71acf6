import SwitchboardJSON

/// The OpenAPI 3.1 document of the server REST API (IM's and LeanStorage's), written from
/// its routes, served at `/openapi.json`.
enum OpenAPIDocument {
    static func json(for routes: [RESTRoute]) -> JSONValue {
        var paths: [String: JSONValue] = [:]
        for route in routes {
            var operations = paths[route.path]?.objectValue ?? [:]
            operations[route.method.rawValue.lowercased()] = operation(route)
            paths[route.path] = .object(operations)
        }
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Switchboard REST API",
                "version": "1.2",
                "description": "LeanCloud's IM REST API (v2, /1.2/rtm) and LeanStorage's REST API over the app's data (/1.1/classes, /1.1/batch, /1.1/scan) for the app's own server. Every request names the app in X-LC-Id and carries X-LC-Key: <master key>,master (or X-LC-Sign); errors answer {code, error}.",
            ],
            "components": [
                "securitySchemes": [
                    "appID": ["type": "apiKey", "in": "header", "name": "X-LC-Id"],
                    "masterKey": ["type": "apiKey", "in": "header", "name": "X-LC-Key", "description": "<master key>,master"],
                    "signature": ["type": "apiKey", "in": "header", "name": "X-LC-Sign", "description": "md5(timestamp + master key),timestamp,master"],
                    "appKey": ["type": "apiKey", "in": "header", "name": "X-LC-Key", "description": "the app key, where allowed"],
                ],
                "schemas": [
                    "Error": [
                        "type": "object",
                        "properties": ["code": ["type": "integer"], "error": ["type": "string"]],
                        "required": ["code", "error"],
                    ],
                ],
            ],
            "paths": .object(paths),
        ]
    }

    private static func operation(_ route: RESTRoute) -> JSONValue {
        var security: [JSONValue] = [["appID": [], "masterKey": []], ["appID": [], "signature": []]]
        if route.appKeyAllowed { security.append(["appID": [], "appKey": []]) }
        let error: JSONValue = ["description": "LeanCloud's error", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]]
        var operation: [String: JSONValue] = [
            "summary": .string(route.summary),
            "security": .array(security),
            "responses": [
                String(route.successStatus.code): ["description": "LeanCloud's answer", "content": ["application/json": ["schema": [:]]]],
                "400": error, "401": error, "404": error,
            ],
        ]
        if route.rateClass != nil, var responses = operation["responses"]?.objectValue {
            responses["429"] = error
            operation["responses"] = .object(responses)
        }
        let parameters = route.pathParameters.map { name -> JSONValue in
            ["name": .string(name), "in": "path", "required": true, "schema": ["type": "string"]]
        } + route.query.map { field -> JSONValue in
            ["name": .string(field.name), "in": "query", "required": .bool(field.required), "schema": schema(field.kind)]
        }
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        if !route.body.isEmpty || route.moreFields {
            var properties: [String: JSONValue] = [:]
            for field in route.body { properties[field.name] = schema(field.kind) }
            let required = route.body.filter(\.required).map { JSONValue.string($0.name) }
            var body: [String: JSONValue] = ["type": "object", "properties": .object(properties), "additionalProperties": .bool(route.moreFields)]
            if !required.isEmpty { body["required"] = .array(required) }
            operation["requestBody"] = ["required": .bool(!required.isEmpty), "content": ["application/json": ["schema": .object(body)]]]
        }
        return .object(operation)
    }

    private static func schema(_ kind: RESTField.Kind) -> JSONValue {
        switch kind {
        case .array: ["type": "array", "items": ["type": "string"]]
        case .objects: ["type": "array", "items": ["type": "object"]]
        case .stringOrObject: ["type": ["string", "object"]]
        default: ["type": .string(kind.rawValue)]
        }
    }
}
