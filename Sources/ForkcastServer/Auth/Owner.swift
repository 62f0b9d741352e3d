import Fluent
import Foundation
import Vapor

/// The signed-in person and their use cases, every one scoped to them. Handlers reach data only
/// through `req.owner`, built from the request's authenticated user, so code that touches another
/// user's rows cannot be written from a handler.
struct Owner {
    let user: UserModel
    let id: UUID
    private let request: Request

    init(_ request: Request) throws {
        user = try request.requireUser()
        id = try user.requireID()
        self.request = request
    }

    var meals: MealRepository { MealRepository(db: request.db, ownerID: id) }
    var plan: PlanRepository { PlanRepository(db: request.db, ownerID: id) }
    var foods: FoodRepository { FoodRepository(db: request.db, ownerID: id) }
    var foodLookup: FoodLookupService {
        FoodLookupService(foods: foods, client: request.application.openFoodFacts, db: request.db, now: request.now)
    }
    var diary: DiaryRepository { DiaryRepository(db: request.db, ownerID: id, photoStore: request.application.photoStore) }
    var diaryService: DiaryService {
        var service = DiaryService(user: user, db: request.db, now: request.now, photoStore: request.application.photoStore)
        if let known = request.keptVersions, known.owner == id { service.kept = (request.application.readCache, known) }
        return service
    }
    var photos: PhotoRepository {
        PhotoRepository(db: request.db, ownerID: id, store: request.application.photoStore, quotaBytes: request.application.forkcastConfig.photoQuotaBytes)
    }
    var capturePhotoEntry: CapturePhotoEntry { CapturePhotoEntry(service: diaryService, photos: photos, uuid: request.dependencies.uuid) }
    var mealTypes: MealTypeRepository { MealTypeRepository(db: request.db, ownerID: id) }
    var occasions: OccasionRepository { OccasionRepository(db: request.db, ownerID: id) }
    var body: BodyRepository { BodyRepository(db: request.db, ownerID: id) }
    // Use cases: each change a person makes, the same from every front door.
    var recordWeight: RecordWeight { RecordWeight(ownerID: id, db: request.db, now: request.now) }
    var saveBodyProfile: SaveBodyProfile {
        SaveBodyProfile(ownerID: id, db: request.db, now: request.now, today: user.today(now: request.now), uuid: request.dependencies.uuid)
    }
    var setGoals: SetGoals { SetGoals(ownerID: id, db: request.db, now: request.now) }
    /// Export, import and deletion of the whole account.
    var accountData: AccountData { AccountData(user: user, db: request.db, photoStore: request.application.photoStore, now: request.now) }
}

extension Request {
    /// The signed-in person's use cases (401 when nobody is signed in).
    var owner: Owner { get throws { try Owner(self) } }
}
