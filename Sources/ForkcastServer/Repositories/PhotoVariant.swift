import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// The two sizes kept of a photo: the picture shown on its own, and the thumbnail in lists.
enum PhotoVariant: String, CaseIterable, Sendable { case full, thumbnail }
