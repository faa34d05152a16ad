/// What one central asset is used for: a clean asset, or one side of one injected discrepancy.
///
/// Every asset has exactly one role, so that no two injections interfere.
enum AssetRole: Sendable, Hashable {
    /// Consistent everywhere, sighted recently, carrying only harmless noise.
    case clean
    /// `MISSING`: in no sighting source.
    case missing
    /// The central tag of a `POSSIBLE_TYPO`: unsighted, while a survey row carries a tag one edit away.
    case typoTarget
    /// The asset whose serial number another central asset also carries.
    case sharedSerialOwner
    /// `SHARED_SERIAL`: central gives it the owner's serial; its other rows carry no serial.
    case sharedSerialCopier(owner: Int)
    /// The asset whose MAC address another central asset also carries.
    case sharedMACOwner
    /// `SHARED_MAC`: central gives it the owner's MAC; its other rows carry no MAC.
    case sharedMACCopier(owner: Int)
    /// `TAG_CNS_MISMATCH`: the CNS register pairs its tag with another, otherwise unused CNS number.
    case tagCNSMismatch(registerCNS: Int)
    /// The asset whose CNS number another central asset also carries.
    case cnsReusedOwner
    /// `CNS_REUSED`: central gives it the owner's CNS number.
    case cnsReusedVictim(owner: Int)
    /// `NO_CNS`: no CNS number anywhere.
    case noCNS
    /// `FIELD_CONFLICT` on one field.
    case fieldConflict(ConflictField)
    /// `INVALID_VALUE` of one kind.
    case invalidValue(InvalidValueKind)
    /// `UNKNOWN_BUILDING`: a survey row names a building not in the table.
    case unknownBuilding
    /// `STALE`: only sighted by an old survey row.
    case stale
    /// `DUPLICATE_ROW`: its survey row is repeated word for word.
    case duplicateRow
    /// `DUPLICATE_TAG`: a second survey row carries its tag with another device's serial and MAC.
    case duplicateTag
}
