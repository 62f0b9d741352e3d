/// Every operation of API v1: the server registers each, ForkcastClient calls them, and the OpenAPI
/// document is built from this list alone.
public enum APIv1 {
    /// Where the server serves this document.
    public static let documentPath: PathTemplate = "/api/v1/openapi.json"

    public static let operations: [any APIOperation.Type] = [
        Weights.List.self, Weights.Record.self, Weights.Delete.self,
        BodyProfiles.Get.self, BodyProfiles.Save.self, DailyGoals.Get.self, DailyGoals.Set.self,
        MealTypes.List.self, MealTypes.Create.self, MealTypes.Suggestion.self, MealTypes.Get.self, MealTypes.Update.self,
        Identities.List.self, Identities.Unlink.self, Invitations.List.self, Invitations.Create.self, Invitations.Revoke.self,
        Households.Get.self, Households.Rename.self, Households.ListInvitations.self, Households.Invite.self,
        Households.RevokeInvitation.self, Households.Join.self, Households.Leave.self, Households.RemoveMember.self, Households.SetRole.self,
        DiaryLinks.Create.self, DiaryLinks.List.self, DiaryLinks.Revoke.self, DiaryLinks.Shared.self, DiaryLinks.SharedExport.self,
        CalendarFeeds.Create.self, CalendarFeeds.List.self, CalendarFeeds.Renew.self, CalendarFeeds.Delete.self,
        APIKeys.Create.self, APIKeys.List.self, APIKeys.Revoke.self,
        Service.Health.self, Service.Document.self,
        Auth.Register.self, Auth.Login.self, Auth.Apple.self, Auth.Logout.self,
        Me.Get.self, Me.Update.self, Me.Delete.self, Me.Export.self, Me.Import.self,
        Foods.List.self, Foods.Create.self, Foods.Get.self, Foods.Update.self, Foods.Delete.self,
        Foods.LookUpBarcode.self, Foods.SearchOpenFoodFacts.self, Foods.Import.self, Foods.Catalog.self, Foods.CatalogEntry.self, NutrientDefinitions.List.self,
        Meals.List.self, Meals.Create.self, Meals.Facets.self, Meals.Get.self, Meals.Update.self, Meals.Delete.self, Meals.Import.self, Meals.RecipeJSONLD.self, Meals.Share.self, Meals.Unshare.self, Meals.Shared.self,
        Meals.SetPhoto.self, Meals.DeletePhoto.self, Meals.Photo.self, Meals.SharedPhoto.self,
        Plan.Get.self, Plan.Assign.self, Plan.AssignMany.self, Plan.Suggest.self, Plan.GetAssignment.self, Plan.UpdateAssignment.self, Plan.Unassign.self, Plan.Eaten.self,
        Plan.ListTemplates.self, Plan.CreateTemplate.self, Plan.ApplyTemplate.self, Plan.DeleteTemplate.self,
        ShoppingLists.List.self, ShoppingLists.Create.self, ShoppingLists.Get.self, ShoppingLists.Delete.self, ShoppingLists.Refresh.self,
        ShoppingLists.AddItem.self, ShoppingLists.UpdateItem.self, ShoppingLists.DeleteItem.self, ShoppingLists.Share.self, ShoppingLists.Unshare.self,
        ShoppingLists.Shared.self, ShoppingLists.SharedCheck.self,
        Pantry.List.self, Pantry.Add.self, Pantry.AddByBarcode.self, Pantry.Update.self, Pantry.Delete.self, Pantry.Use.self, Plan.Cooked.self, Meals.Cookable.self,
        Diary.Day.self, Diary.Log.self, Diary.Get.self, Diary.Edit.self, Diary.Delete.self, Diary.Plate.self, Diary.Copy.self,
        Diary.LogPlanned.self, Diary.Summary.self, Diary.Export.self,
        Occasions.List.self, Occasions.Get.self,
        Photos.Upload.self, Photos.Get.self, Photos.Image.self, Photos.Thumbnail.self,
        HealthImport.Run.self, HealthImport.Status.self,
        Sync.Changes.self, Sync.Push.self, Sync.Events.self,
    ]
}
