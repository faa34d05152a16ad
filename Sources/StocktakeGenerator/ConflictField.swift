/// The field, and the source, of an injected `FIELD_CONFLICT`.
enum ConflictField: String, CaseIterable, Sendable, Hashable {
    /// The controller export reports another model.
    case model
    /// A survey row names another building.
    case building
    /// A survey row names another room.
    case room
    /// A survey row names another mount.
    case mount
    /// The custodian list assigns another custodian.
    case custodian
}
