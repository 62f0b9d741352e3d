import Foundation

extension Meals {
    static let photoCached = ["Cache-Control": "private, no-cache (a new photo keeps the address: ask again with If-None-Match)",
                              "ETag": "The photo's id: send it back as If-None-Match to get a 304"]

    public enum SetPhoto: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = MealAnswer
        public static let spec = OperationSpec(.put, "/api/v1/meals/{id}/photo", "setMealPhoto", tag: "meals",
            summary: "Put a photo on the recipe, in place of the one it had: the image as the body, or a form with photo. Checked by its bytes and stored without its metadata; the household sees it.",
            success: Outcome(200, "The meal, with its new photoId"),
            failures: [Outcome(404, "No such meal in your household"), .notSignedIn, .csrf,
                       Outcome(413, "Photo over the size limit (15 MB by default, FORKCAST_PHOTO_MAX_MB), or past what the household's recipe photos may take (FORKCAST_PHOTO_QUOTA_MB); nothing was saved"),
                       Outcome(415, "Not a JPEG, PNG or WebP image, judged by its bytes (a HEIC photo too: few browsers show it)"),
                       Outcome(422, "An empty or corrupt image"), .unavailable],
            parameterNotes: ["id": FieldNote("The meal's id")],
            rawBody: RawMedia.each(RawMedia.imageTypes + ["application/octet-stream"], RawMedia.upload).merging([
                "multipart/form-data": ["type": "object", "required": ["photo"], "properties": [
                    "photo": ["type": "string", "format": "binary", "description": "The photo (a file part)"]]]]) { $1 })
    }

    public enum DeletePhoto: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/meals/{id}/photo", "deleteMealPhoto", tag: "meals",
            summary: "Take the photo off the recipe", success: Outcome(204, "Taken off (or there was none)"),
            failures: [Outcome(404, "No such meal in your household")] + Outcome.write, parameterNotes: ["id": FieldNote("The meal's id")])
    }

    public enum Photo: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.get, "/api/v1/meals/{id}/photo", "getMealPhoto", tag: "meals",
            summary: "The recipe's photo, for its household", success: Outcome(200, "The image, without its metadata"),
            failures: [Outcome(404, "No such meal in your household, or it has no photo")] + Outcome.read,
            parameterNotes: ["id": FieldNote("The meal's id")], headerParameters: [Photos.ifNoneMatch], answerHeaders: photoCached,
            otherAnswers: [Outcome(304, "Not modified (If-None-Match matched the ETag)")],
            rawAnswer: RawMedia.each(RawMedia.imageTypes, RawMedia.file))
    }

    public enum SharedPhoto: APIOperation {
        public typealias Parameters = ShareTokenParameter
        public static let spec = OperationSpec(.get, "/api/v1/shared/recipes/{token}/photo", "getSharedRecipePhoto", tag: "meals",
            summary: "The photo of the recipe a link shares (no account needed)", success: Outcome(200, "The image, without its metadata"),
            failures: [Outcome(404, "No recipe is shared by this link, or it has no photo"), .unavailable],
            parameterNotes: ["token": FieldNote("The sharing link's token", maxLength: 100)],
            headerParameters: [Photos.ifNoneMatch],
            answerHeaders: ["Cache-Control": "no-store (no cache keeps a link's answers)", "ETag": "The photo's id", "Referrer-Policy": "no-referrer"],
            otherAnswers: [Outcome(304, "Not modified (If-None-Match matched the ETag)")],
            signedIn: false, rawAnswer: RawMedia.each(RawMedia.imageTypes, RawMedia.file))
    }
}
