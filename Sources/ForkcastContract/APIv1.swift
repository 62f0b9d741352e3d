/// Every operation of API v1 described from Swift (the rest are still in the legacy document
/// until their families move here).
public enum APIv1 {
    /// Where the server serves this document.
    public static let documentPath: PathTemplate = "/api/v1/openapi.json"

    public static let operations: [any APIOperation.Type] = [
        Weights.List.self, Weights.Record.self, Weights.Delete.self,
        BodyProfiles.Get.self, BodyProfiles.Save.self, DailyGoals.Get.self, DailyGoals.Set.self,
        MealTypes.List.self, MealTypes.Create.self, MealTypes.Suggestion.self, MealTypes.Get.self, MealTypes.Update.self,
        Identities.List.self, Identities.Unlink.self,
        Service.Health.self, Service.Document.self,
        Auth.Register.self, Auth.Login.self, Auth.Apple.self, Auth.Logout.self,
        Me.Get.self, Me.Update.self, Me.Delete.self, Me.Export.self, Me.Import.self,
    ]
}
