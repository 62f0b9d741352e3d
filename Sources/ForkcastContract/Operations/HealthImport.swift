import ForkcastCore
import Foundation

/// `POST /api/v1/health/import`: what an Apple Health export gave.
public struct HealthImportResult: Codable, Sendable, Hashable, SchemaDocumented {
    public var weightsFound: Int
    public var weightsAdded: Int
    public var heightCm: Decimal?
    public var birthDate: CalendarDate?
    public var sex: Sex?
    public var recordsRead: Int
    /// Body-mass records in the file; `weightsFound` is what is left at one a day.
    public var weightRecords: Int
    /// Records not imported, by reason: implausible, unreadable, unknownUnit, sameDay, alreadyRecorded.
    public var skipped: [String: Int]

    public init(weightsFound: Int, weightsAdded: Int, heightCm: Decimal?, birthDate: CalendarDate?, sex: Sex?,
                recordsRead: Int, weightRecords: Int, skipped: [String: Int]) {
        self.weightsFound = weightsFound
        self.weightsAdded = weightsAdded
        self.heightCm = heightCm
        self.birthDate = birthDate
        self.sex = sex
        self.recordsRead = recordsRead
        self.weightRecords = weightRecords
        self.skipped = skipped
    }

    public static let schemaName = "ImportResult"
    public static var fieldNotes: [String: FieldNote] {
        ["weightsFound": FieldNote(minimum: 0), "weightsAdded": FieldNote(minimum: 0), "recordsRead": FieldNote(minimum: 0),
         "weightRecords": FieldNote("Body-mass records in the file; weightsFound is what is left at one a day", minimum: 0),
         "skipped": FieldNote("Records not imported, by reason: implausible, unreadable (a value or date that cannot be read), unknownUnit, sameDay, alreadyRecorded",
                              schema: ["type": "object", "additionalProperties": ["type": "integer", "minimum": 0]])]
    }
}

/// `GET /api/v1/health/import`: whether an import is running, and how far it has read.
public struct HealthImportStatus: Codable, Sendable, Hashable, SchemaDocumented {
    public enum Phase: String, Codable, Sendable, CaseIterable, SchemaLeaf { case uploading, reading, saving }
    public var running: Bool
    public var phase: Phase?
    public var bytesRead: Int64
    public var bytesTotal: Int64

    public init(running: Bool, phase: Phase?, bytesRead: Int64, bytesTotal: Int64) {
        self.running = running
        self.phase = phase
        self.bytesRead = bytesRead
        self.bytesTotal = bytesTotal
    }

    public static let schemaName = "HealthImportStatus"
    public static var fieldNotes: [String: FieldNote] { ["bytesRead": FieldNote(minimum: 0), "bytesTotal": FieldNote(minimum: 0)] }
}

extension Int64: SchemaLeaf {
    public static var leafSchema: JSONValue { ["type": "integer"] }
    public static var schemaSample: Int64 { 0 }
}

/// `/api/v1/health/import`: an Apple Health export, read as it streams in.
public enum HealthImport {
    public enum Run: APIOperation {
        public typealias Answer = HealthImportResult
        public static let spec = OperationSpec(.post, "/api/v1/health/import", "importAppleHealth", tag: "body",
            summary: "Import body mass, height, date of birth and sex from an Apple Health export (export.zip or export.xml, streamed)",
            success: Outcome(200, "What was imported"),
            failures: [
                Outcome(400, "Empty upload, or a malformed multipart form"), .notSignedIn, .csrf,
                Outcome(409, "An import is already running for your account"), Outcome(413, "Upload over 4 GB"),
                Outcome(422, "Not an Apple Health export (named in errors as file)"), .unavailable,
            ], rawBody: RawMedia.each(["application/zip", "application/xml"], RawMedia.upload))
    }

    public enum Status: APIOperation {
        public typealias Answer = HealthImportStatus
        public static let spec = OperationSpec(.get, "/api/v1/health/import", "healthImportStatus", tag: "body",
            summary: "Whether an Apple Health import of yours is running, and how far it has read",
            success: Outcome(200, "Status"), failures: Outcome.read)
    }
}
