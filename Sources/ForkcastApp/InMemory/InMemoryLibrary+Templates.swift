import ForkcastCore
import Foundation

extension InMemoryLibrary {
    /// The household's week templates.
    struct Templates: PlanTemplateRecords {
        let tx: Transaction

        func all() async throws -> [PlanTemplate] {
            let records = tx.records
            return records.templates.values.filter { records.shares($0.owner, with: tx.owner) }.map(\.value).sorted { ($0.name, $0.id.uuidString) < ($1.name, $1.id.uuidString) }
        }

        func find(_ id: UUID) async throws -> PlanTemplate? {
            tx.records.templates[id].flatMap { tx.holds($0.owner) ? $0.value : nil }
        }

        func insert(_ template: PlanTemplate) async throws {
            try tx.update { records in
                guard records.templates[template.id] == nil else { throw InMemoryLibraries.DuplicateID(id: template.id) }
                records.templates[template.id] = .init(owner: tx.owner, value: template)
            }
        }

        func delete(_ id: UUID) async throws -> Bool {
            tx.update { records in
                guard let stored = records.templates[id], records.shares(stored.owner, with: tx.owner) else { return false }
                records.templates[id] = nil
                return true
            }
        }
    }
}
