import ForkcastCore
import Foundation

/// `/api/v1/diary`: logging, the plate, the day, range summaries and exports.
public enum Diary {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The entry's id")]
    static let notYours = Outcome(404, "A referenced meal or food is not yours (or does not exist); the problem names the field")

    public enum Day: APIOperation {
        public typealias Parameters = DayQuery
        public typealias Answer = DiaryDayAnswer
        public static let id = "getDiaryDay"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/diary"
        public static let summary = "A day of the diary: entries by meal type, totals, goals, remaining (may be negative)"
        public static let tag = "diary"
        public static let success = Outcome(200, "The day")
        public static let failures = [Outcome(400, "Bad date")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { ["date": FieldNote("Day (default today in your time zone)")] }
    }

    public enum Log: APIOperation {
        public typealias Body = DiaryEntryInput
        public typealias Answer = DiaryEntryAnswer
        public static let id = "createDiaryEntry"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/diary/entries"
        public static let summary = "Log a food amount, servings of a meal, a quick add, or a photo to count later"
        public static let tag = "diary"
        public static let success = Outcome(201, "Logged")
        public static var headerParameters: [HeaderParameter] { [.idempotencyKey] }
        public static let answerHeaders = ["Location": "The new entry"]
        public static let failures = [Outcome(404, "A referenced meal, food or photo is not yours (or does not exist); the problem names the field"),
                                      Outcome(409, "The photo already belongs to another diary entry")] + Outcome.writeJSON
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = DiaryEntryAnswer
        public static let id = "getDiaryEntry"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/diary/entries/{id}"
        public static let summary = "One entry"
        public static let tag = "diary"
        public static let success = Outcome(200, "The entry")
        public static let failures = [Outcome(404, "No such entry")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Edit: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = DiaryEntryUpdate
        public typealias Answer = DiaryEntryAnswer
        public static let id = "updateDiaryEntry"
        public static let method = HTTPVerb.put
        public static let path: PathTemplate = "/api/v1/diary/entries/{id}"
        public static let summary = "Move an entry to another meal type or time, change its note, or re-log it with a new amount"
        public static let tag = "diary"
        public static let success = Outcome(200, "Updated")
        public static let failures = [
            Outcome(404, "No such entry, or a referenced meal, food or photo that is not yours"),
            Outcome(409, "The new time would move the entry to another occasion (problem type …/occasion-change, with from and to; send the change again with \"confirmMove\": true to move it), or the photo already belongs to another entry"),
        ] + Outcome.writeJSON
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "deleteDiaryEntry"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/diary/entries/{id}"
        public static let summary = "Delete an entry"
        public static let tag = "diary"
        public static let success = Outcome.deleted
        public static let failures = [Outcome(404, "No such entry")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Plate: APIOperation {
        public typealias Body = PlateInput
        public typealias Answer = [DiaryEntryAnswer]
        public static let id = "logPlate"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/diary/plate"
        public static let summary = "Log several foods and meals at once to one meal type (all or nothing)"
        public static let tag = "diary"
        public static let success = Outcome(201, "Logged")
        public static var headerParameters: [HeaderParameter] { [.idempotencyKey] }
        public static let failures = [notYours, Outcome(409, "An item's photo already belongs to another diary entry")] + Outcome.writeJSON
    }

    public enum Copy: APIOperation {
        public typealias Body = CopyMealInput
        public typealias Answer = [DiaryEntryAnswer]
        public static let id = "copyMeal"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/diary/copy"
        public static let summary = "Log a meal of another day again (e.g. yesterday's breakfast), with the foods, amounts and values it was logged with"
        public static let tag = "diary"
        public static let success = Outcome(201, "Logged")
        public static var headerParameters: [HeaderParameter] { [.idempotencyKey] }
        public static let failures = [notYours] + Outcome.writeJSON
    }

    public enum LogPlanned: APIOperation {
        public typealias Body = LogPlannedInput
        public typealias Answer = DiaryEntryAnswer
        public static let id = "logPlannedMeal"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/diary/log-planned"
        public static let summary = "Log a planned meal in one tap"
        public static let tag = "diary"
        public static let success = Outcome(201, "Logged")
        public static var headerParameters: [HeaderParameter] { [.idempotencyKey] }
        public static let answerHeaders = ["Location": "The new entry"]
        public static let failures = [Outcome(404, "No such assignment")] + Outcome.writeJSON
    }

    public enum Summary: APIOperation {
        public typealias Parameters = RangeQuery
        public typealias Answer = DiarySummary
        public static let id = "diarySummary"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/diary/summary"
        public static let summary = "Daily totals over a range (at most \(RangeQuery.summaryMaximumDays) days) with goals and weights, for charts"
        public static let tag = "diary"
        public static let success = Outcome(200, "Summary")
        public static let failures = [Outcome(400, "Bad date, from after to, or more than \(RangeQuery.summaryMaximumDays) days")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { RangeQuery.notes(maximumDays: RangeQuery.summaryMaximumDays) }
    }

    public enum Export: APIOperation {
        public typealias Parameters = ExportQuery
        public static let id = "exportDiary"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/diary/export"
        public static let summary = "The diary of a range as CSV or JSON"
        public static let tag = "diary"
        public static let success = Outcome(200, "The export")
        public static var rawAnswer: [String: JSONValue]? {
            ["text/csv": ["type": "string"], "application/json": ["$ref": .string("#/components/schemas/\(DiaryExportAnswer.schemaName)")]]
        }
        public static var rawAnswerTypes: [any Decodable.Type] { [DiaryExportAnswer.self] }
        public static let answerHeaders = ["Content-Disposition": "attachment; filename=…"]
        public static let failures = [Outcome(400, "Bad date or format, from after to, or more than \(RangeQuery.exportMaximumDays) days")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            RangeQuery.notes(maximumDays: RangeQuery.exportMaximumDays).merging(["format": FieldNote("File format", default: "csv")]) { $1 }
        }
    }
}

/// `/api/v1/occasions`: meal-first history (seed 004 §7).
public enum Occasions {
    public enum List: APIOperation {
        public typealias Parameters = OccasionQuery
        public typealias Answer = [OccasionAnswer]
        public static let id = "listOccasions"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/occasions"
        public static let summary = "Meal-first history: occasions newest first, a page ending at a day boundary (it may hold a few more than limit to finish its last day)"
        public static let tag = "history"
        public static let success = Outcome(200, "Occasions, newest first, without their entries")
        public static let failures = [Outcome(400, "Bad before, date or limit")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            ["before": FieldNote("Only days before this one (the next page: the date of the last occasion)"),
             "date": FieldNote("Only days up to and including this one"),
             "limit": FieldNote("Occasions per page", minimum: 1, maximum: Decimal(OccasionQuery.maximumLimit), default: 20)]
        }
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = OccasionAnswer
        public static let id = "getOccasion"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/occasions/{id}"
        public static let summary = "One occasion with its entries"
        public static let tag = "history"
        public static let success = Outcome(200, "The occasion")
        public static let failures = [Outcome(404, "No such occasion in your account (an occasion ends with its last entry)")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { ["id": FieldNote("The occasion's id (a diary entry's occasionId)")] }
    }
}

/// `/api/v1/photos`: upload (checked by content, stored without metadata) and the private bytes.
public enum Photos {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The photo's id")]
    static let account = HeaderParameter("X-Forkcast-Account", "The account a web page's script acts for: not an account id is a 400, another than the signed-in one a 409",
                                         schema: ["type": "string", "format": "uuid"])
    static let cached = ["Cache-Control": "private, max-age=31536000, immutable (a photo never changes under its id)",
                         "ETag": "Send it back as If-None-Match to get a 304"]
    static let ifNoneMatch = HeaderParameter("If-None-Match", "The ETag of a copy you have")

    public enum Upload: APIOperation {
        public typealias Parameters = PhotoUploadQuery
        public typealias Answer = PhotoAnswer
        public static let id = "uploadPhoto"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/photos"
        public static let summary = "Upload a photo: the image as the body, or a form with photo, thumbnail and capturedAt. Checked by its bytes and stored without its metadata."
        public static let tag = "photos"
        public static let success = Outcome(201, "Stored (without its metadata)")
        public static let answerHeaders = ["Location": "The new resource"]
        public static var headerParameters: [HeaderParameter] { [account] }
        public static var rawBody: [String: JSONValue]? {
            RawMedia.each(RawMedia.imageTypes + ["application/octet-stream"], RawMedia.upload).merging([
                "multipart/form-data": ["type": "object", "required": ["photo"], "properties": [
                    "photo": ["type": "string", "format": "binary", "description": "The photo (a file part)"],
                    "thumbnail": ["type": "string", "format": "binary", "description": "Optional small version made by the client: a JPEG, PNG or WebP of at most 640 px per side and 256 KB (else the one embedded in a JPEG is used, else none)"],
                    "capturedAt": FieldNote("When it was taken (default now)").applied(to: Date.inputLeafSchema),
                ]]]) { $1 }
        }
        public static let failures = [
            Outcome(400, "A capturedAt that is not an ISO 8601 instant, or an X-Forkcast-Account that is not an account id"), .notSignedIn, .csrf,
            Outcome(409, "X-Forkcast-Account names another account than the signed-in one (a web page's outbox after the account changed); nothing was saved"),
            Outcome(413, "Photo over the size limit (15 MB by default, FORKCAST_PHOTO_MAX_MB)"),
            Outcome(415, "Not a JPEG, PNG, WebP or HEIC photo (judged by its bytes, not its name or Content-Type)"),
            Outcome(422, "An empty or corrupt photo, a bad thumbnail, or a bad capturedAt; the problem names the field"), .unavailable,
        ]
        public static var parameterNotes: [String: FieldNote] {
            ["capturedAt": FieldNote("When it was taken, for a photo sent as the body (a form sends it as a field); default now")]
        }
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = PhotoAnswer
        public static let id = "getPhoto"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/photos/{id}"
        public static let summary = "One photo's details"
        public static let tag = "photos"
        public static let success = Outcome(200, "The photo")
        public static let failures = [Outcome(404, "No such photo in your account")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Image: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "getPhotoImage"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/photos/{id}/image"
        public static let summary = "A photo's image (private to you; cache it for good)"
        public static let tag = "photos"
        public static let success = Outcome(200, "The image, without its metadata")
        public static let otherAnswers = [Outcome(304, "Not modified (If-None-Match matched the ETag)")]
        public static var rawAnswer: [String: JSONValue]? { RawMedia.each(RawMedia.imageTypes, RawMedia.file) }
        public static var answerHeaders: [String: String] { cached }
        public static var headerParameters: [HeaderParameter] { [ifNoneMatch] }
        public static let failures = [Outcome(404, "No such photo in your account")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Thumbnail: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "getPhotoThumbnail"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/photos/{id}/thumbnail"
        public static let summary = "A photo's small version (the image itself when it has none)"
        public static let tag = "photos"
        public static let success = Outcome(200, "The thumbnail")
        public static let otherAnswers = [Outcome(304, "Not modified (If-None-Match matched the ETag)")]
        public static var rawAnswer: [String: JSONValue]? { RawMedia.each(RawMedia.imageTypes, RawMedia.file) }
        public static var answerHeaders: [String: String] { cached }
        public static var headerParameters: [HeaderParameter] { [ifNoneMatch] }
        public static let failures = [Outcome(404, "No such photo in your account")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }
}
