import Foundation

extension Meals {
    public enum Share: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = RecipeShareAnswer
        public static let spec = OperationSpec(.post, "/api/v1/meals/{id}/share", "shareRecipe", tag: "meals",
            summary: "A read-only link to this recipe that works signed out, until revoked",
            success: Outcome(201, "Shared"), failures: [Outcome(404, "No such meal in your household")] + Outcome.write,
            parameterNotes: ["id": FieldNote("The meal's id")], otherAnswers: [Outcome(200, "Already shared: the same link")])
    }

    public enum Unshare: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/meals/{id}/share", "unshareRecipe", tag: "meals",
            summary: "Revoke the recipe's link at once (it then answers 404)", success: Outcome(204, "Revoked"),
            failures: [Outcome(404, "No such meal in your household")] + Outcome.write, parameterNotes: ["id": FieldNote("The meal's id")])
    }

    public enum Shared: APIOperation {
        public typealias Parameters = ShareTokenParameter
        public static let spec = OperationSpec(.get, "/api/v1/shared/recipes/{token}", "getSharedRecipe", tag: "meals",
            summary: "The recipe a link shares, as schema.org Recipe JSON-LD (no account needed): POST it to /api/v1/meals/import as jsonld to keep a copy",
            success: Outcome(200, "The recipe"),
            failures: [Outcome(404, "No recipe is shared by this link (never, or revoked)"), .unavailable],
            parameterNotes: ["token": FieldNote("The sharing link's token", maxLength: 100)],
            signedIn: false, rawAnswer: ["application/ld+json": ["type": "object"]])
    }
}

/// A recipe's read-only link.
public struct RecipeShareAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    /// The page that shows the recipe on any device, signed out.
    public var link: String
    /// The link's token: `GET /api/v1/shared/recipes/{token}` answers the recipe as JSON-LD.
    public var token: String
    public init(link: String, token: String) {
        self.link = link
        self.token = token
    }
    public static let schemaName = "RecipeShare"
    public static var fieldNotes: [String: FieldNote] {
        ["link": FieldNote("The recipe's page, readable signed out (and by another recipe app's importer)"),
         "token": FieldNote("For GET /api/v1/shared/recipes/{token}")]
    }
}
