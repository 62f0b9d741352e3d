import ForkcastCore
import Foundation

/// `/api/v1/diary`: logging, the plate, the day, range summaries and exports.
public enum Diary {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The entry's id")]
    static let notYours = Outcome(404, "A referenced meal or food is not yours (or does not exist); the problem names the field")

    public enum Day: APIOperation {
        public typealias Parameters = DayQuery
        public typealias Answer = DiaryDayAnswer
        public static let spec = OperationSpec(.get, "/api/v1/diary", "getDiaryDay", tag: "diary",
            summary: "A day of the diary: entries by meal type, totals, goals, remaining (may be negative)",
            success: Outcome(200, "The day"), failures: [Outcome(400, "Bad date")] + Outcome.read,
            parameterNotes: ["date": FieldNote("Day (default today in your time zone)")])
    }

    public enum Log: APIOperation {
        public typealias Body = DiaryEntryInput
        public typealias Answer = DiaryEntryAnswer
        public static let spec = OperationSpec(.post, "/api/v1/diary/entries", "createDiaryEntry", tag: "diary",
            summary: "Log a food amount, servings of a meal, a quick add, or a photo to count later",
            success: Outcome(201, "Logged"),
            failures: [Outcome(404, "A referenced meal, food or photo is not yours (or does not exist); the problem names the field"),
                Outcome(409, "The photo already belongs to another diary entry")] + Outcome.writeJSON,
            headerParameters: [.idempotencyKey], answerHeaders: ["Location": "The new entry"])
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = DiaryEntryAnswer
        public static let spec = OperationSpec(.get, "/api/v1/diary/entries/{id}", "getDiaryEntry", tag: "diary",
            summary: "One entry", success: Outcome(200, "The entry"), failures: [Outcome(404, "No such entry")] + Outcome.read,
            parameterNotes: idNote)
    }

    public enum Edit: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = DiaryEntryUpdate
        public typealias Answer = DiaryEntryAnswer
        public static let spec = OperationSpec(.put, "/api/v1/diary/entries/{id}", "updateDiaryEntry", tag: "diary",
            summary: "Move an entry to another meal type or time, change its note, or re-log it with a new amount",
            success: Outcome(200, "Updated"),
            failures: [
                Outcome(404, "No such entry, or a referenced meal, food or photo that is not yours"),
                Outcome(409, "The new time would move the entry to another occasion (problem type …/occasion-change, with from and to; send the change again with \"confirmMove\": true to move it), or the photo already belongs to another entry"),
            ] + Outcome.writeJSON, parameterNotes: idNote)
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/diary/entries/{id}", "deleteDiaryEntry", tag: "diary",
            summary: "Delete an entry", success: Outcome.deleted, failures: [Outcome(404, "No such entry")] + Outcome.write,
            parameterNotes: idNote)
    }

    public enum Plate: APIOperation {
        public typealias Body = PlateInput
        public typealias Answer = [DiaryEntryAnswer]
        public static let spec = OperationSpec(.post, "/api/v1/diary/plate", "logPlate", tag: "diary",
            summary: "Log several foods and meals at once to one meal type (all or nothing)", success: Outcome(201, "Logged"),
            failures: [notYours, Outcome(409, "An item's photo already belongs to another diary entry")] + Outcome.writeJSON,
            headerParameters: [.idempotencyKey])
    }

    public enum Copy: APIOperation {
        public typealias Body = CopyMealInput
        public typealias Answer = [DiaryEntryAnswer]
        public static let spec = OperationSpec(.post, "/api/v1/diary/copy", "copyMeal", tag: "diary",
            summary: "Log a meal of another day again (e.g. yesterday's breakfast), with the foods, amounts and values it was logged with",
            success: Outcome(201, "Logged"), failures: [notYours] + Outcome.writeJSON, headerParameters: [.idempotencyKey])
    }

    public enum LogPlanned: APIOperation {
        public typealias Body = LogPlannedInput
        public typealias Answer = DiaryEntryAnswer
        public static let spec = OperationSpec(.post, "/api/v1/diary/log-planned", "logPlannedMeal", tag: "diary",
            summary: "Log a planned meal in one tap", success: Outcome(201, "Logged"),
            failures: [Outcome(404, "No such assignment")] + Outcome.writeJSON, headerParameters: [.idempotencyKey],
            answerHeaders: ["Location": "The new entry"])
    }

    public enum Summary: APIOperation {
        public typealias Parameters = RangeQuery
        public typealias Answer = DiarySummary
        public static let spec = OperationSpec(.get, "/api/v1/diary/summary", "diarySummary", tag: "diary",
            summary: "Daily totals over a range (at most \(RangeQuery.summaryMaximumDays) days) with goals and weights, for charts",
            success: Outcome(200, "Summary"),
            failures: [Outcome(400, "Bad date, from after to, or more than \(RangeQuery.summaryMaximumDays) days")] + Outcome.read,
            parameterNotes: RangeQuery.notes(maximumDays: RangeQuery.summaryMaximumDays))
    }

    public enum Export: APIOperation {
        public typealias Parameters = ExportQuery
        public static let spec = OperationSpec(.get, "/api/v1/diary/export", "exportDiary", tag: "diary",
            summary: "The diary of a range as CSV or JSON", success: Outcome(200, "The export"),
            failures: [Outcome(400, "Bad date or format, from after to, or more than \(RangeQuery.exportMaximumDays) days")] + Outcome.read,
            parameterNotes: RangeQuery.notes(maximumDays: RangeQuery.exportMaximumDays).merging(["format": FieldNote("File format", default: "csv")]) { $1 },
            answerHeaders: ["Content-Disposition": "attachment; filename=…"],
            rawAnswer: ["text/csv": ["type": "string"], "application/json": ["$ref": .string("#/components/schemas/\(DiaryExportAnswer.schemaName)")]])
        public static var rawAnswerTypes: [any Decodable.Type] { [DiaryExportAnswer.self] }
    }
}

/// `/api/v1/occasions`: meal-first history (seed 004 §7).
public enum Occasions {
    public enum List: APIOperation {
        public typealias Parameters = OccasionQuery
        public typealias Answer = [OccasionAnswer]
        public static let spec = OperationSpec(.get, "/api/v1/occasions", "listOccasions", tag: "history",
            summary: "Meal-first history: occasions newest first, a page ending at a day boundary (it may hold a few more than limit to finish its last day)",
            success: Outcome(200, "Occasions, newest first, without their entries"),
            failures: [Outcome(400, "Bad before, date or limit")] + Outcome.read,
            parameterNotes: ["before": FieldNote("Only days before this one (the next page: the date of the last occasion)"),
                "date": FieldNote("Only days up to and including this one"),
                "limit": FieldNote("Occasions per page", minimum: 1, maximum: Decimal(OccasionQuery.maximumLimit), default: 20)])
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = OccasionAnswer
        public static let spec = OperationSpec(.get, "/api/v1/occasions/{id}", "getOccasion", tag: "history",
            summary: "One occasion with its entries", success: Outcome(200, "The occasion"),
            failures: [Outcome(404, "No such occasion in your account (an occasion ends with its last entry)")] + Outcome.read,
            parameterNotes: ["id": FieldNote("The occasion's id (a diary entry's occasionId)")])
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
        public static let spec = OperationSpec(.post, "/api/v1/photos", "uploadPhoto", tag: "photos",
            summary: "Upload a photo: the image as the body, or a form with photo, thumbnail and capturedAt. Checked by its bytes and stored without its metadata.",
            success: Outcome(201, "Stored (without its metadata)"),
            failures: [
                Outcome(400, "A capturedAt that is not an ISO 8601 instant, or an X-Forkcast-Account that is not an account id"), .notSignedIn, .csrf,
                Outcome(409, "X-Forkcast-Account names another account than the signed-in one (a web page's outbox after the account changed); nothing was saved"),
                Outcome(413, "Photo over the size limit (15 MB by default, FORKCAST_PHOTO_MAX_MB)"),
                Outcome(415, "Not a JPEG, PNG, WebP or HEIC photo (judged by its bytes, not its name or Content-Type)"),
                Outcome(422, "An empty or corrupt photo, a bad thumbnail, or a bad capturedAt; the problem names the field"), .unavailable,
            ],
            parameterNotes: ["capturedAt": FieldNote("When it was taken, for a photo sent as the body (a form sends it as a field); default now")],
            headerParameters: [account], answerHeaders: ["Location": "The new resource"],
            rawBody: RawMedia.each(RawMedia.imageTypes + ["application/octet-stream"], RawMedia.upload).merging([
                "multipart/form-data": ["type": "object", "required": ["photo"], "properties": [
                "photo": ["type": "string", "format": "binary", "description": "The photo (a file part)"],
                "thumbnail": ["type": "string", "format": "binary", "description": "Optional small version made by the client: a JPEG, PNG or WebP of at most 640 px per side and 256 KB (else the one embedded in a JPEG is used, else none)"],
                "capturedAt": FieldNote("When it was taken (default now)").applied(to: Date.inputLeafSchema),
            ]]]) { $1 })
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = PhotoAnswer
        public static let spec = OperationSpec(.get, "/api/v1/photos/{id}", "getPhoto", tag: "photos",
            summary: "One photo's details", success: Outcome(200, "The photo"),
            failures: [Outcome(404, "No such photo in your account")] + Outcome.read, parameterNotes: idNote)
    }

    public enum Image: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.get, "/api/v1/photos/{id}/image", "getPhotoImage", tag: "photos",
            summary: "A photo's image (private to you; cache it for good)",
            success: Outcome(200, "The image, without its metadata"),
            failures: [Outcome(404, "No such photo in your account")] + Outcome.read, parameterNotes: idNote,
            headerParameters: [ifNoneMatch], answerHeaders: cached,
            otherAnswers: [Outcome(304, "Not modified (If-None-Match matched the ETag)")],
            rawAnswer: RawMedia.each(RawMedia.imageTypes, RawMedia.file))
    }

    public enum Thumbnail: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.get, "/api/v1/photos/{id}/thumbnail", "getPhotoThumbnail", tag: "photos",
            summary: "A photo's small version (the image itself when it has none)", success: Outcome(200, "The thumbnail"),
            failures: [Outcome(404, "No such photo in your account")] + Outcome.read, parameterNotes: idNote,
            headerParameters: [ifNoneMatch], answerHeaders: cached,
            otherAnswers: [Outcome(304, "Not modified (If-None-Match matched the ETag)")],
            rawAnswer: RawMedia.each(RawMedia.imageTypes, RawMedia.file))
    }
}
