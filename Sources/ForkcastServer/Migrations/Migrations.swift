import Fluent
import Vapor

extension Application {
    /// Registers every migration in order. Numbers only grow; a released migration is never edited.
    func registerMigrations() {
        migrations.add(M001_CreateUsers())
        migrations.add(M002_CreateMeals())
        migrations.add(M003_CreateAssignments())
        migrations.add(M004_CreateLoginThrottles())
        migrations.add(SessionRecord.migration)
        migrations.add(M005_CreateFoods())
        migrations.add(M006_CreateDiary())
        migrations.add(M007_Hardening())
        migrations.add(M008_CreateSyncRecords())
        migrations.add(M009_PlanSlots())
        migrations.add(M010_MealOccasions())
        migrations.add(M011_SearchIndex())
        migrations.add(M012_ExternalIdentities())
        migrations.add(M013_SyncKindIndex())
        migrations.add(M014_PhotoOnOneEntry())
        migrations.add(M015_FoodCatalog())
        migrations.add(M016_ShoppingLists())
        migrations.add(M017_Invitations())
        migrations.add(M018_SyncHeads())
        migrations.add(M019_MealNumberOrder())
        migrations.add(M020_ShoppingPurchase())
        migrations.add(M021_Households())
        migrations.add(M022_DiaryLinks())
        migrations.add(M023_HouseholdInvitations())
        migrations.add(M024_PlanEaters(), M025_Recipes(), M026_RecipeLinks(), M027_Pantry(), M028_CalendarFeeds(), M029_APIKeys(),
                       M030_PlanSeries(), M031_PlanTemplates(), M032_MealPhotos(), M033_WrittenUnits())
    }
}
