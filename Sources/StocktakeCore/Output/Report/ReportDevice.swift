/// One device on the report: an asset (or a tag-less device) and all its findings, listed together, so that a
/// device with several findings appears once.
struct ReportDevice: Sendable, Hashable {
    /// How the device is named: `VT tag 004512`, `Serial CNF9`, or what the finding names.
    var label: String
    /// The device's VT tag, when it has one.
    var vtTag: VTTag?
    /// Where it is, from the asset's merged values or, for a device without an asset, from the finding.
    var building: String?
    var room: String?
    /// The model, from the asset's merged values, to help find it.
    var model: String?
    /// The indices of its findings in `Reconciliation.discrepancies`, the most telling first (`FindingRanking`).
    var findings: [Int]

    /// What findings are grouped by: the device's VT tag, else its serial, MAC or CNS number; a finding with none of
    /// them stands alone.
    private enum Key {
        case tag(UInt64)
        case serial(String)
        case mac(String)
        case cns(UInt64)
        case alone(Int)
    }

    /// The device of each key found so far, in tables by the key's kind: a dictionary keyed by `Key` would cost a
    /// search of the program's conformances the first time, longer than all the lookups of a small account.
    private struct Positions {
        var tags: IntegerTable
        var cnsNumbers = IntegerTable()
        var serials: [String: Int] = [:]
        var macs: [String: Int] = [:]

        init(capacity: Int) {
            tags = IntegerTable(capacity: capacity)
        }

        /// The position of `key`'s device; when there is none yet, records `position` for it and returns `nil`.
        mutating func position(of key: Key, insertingIfAbsent position: Int) -> Int? {
            switch key {
            case .tag(let number): tags.value(of: number, insertingIfAbsent: Int32(position)).map(Int.init)
            case .cns(let number): cnsNumbers.value(of: number, insertingIfAbsent: Int32(position)).map(Int.init)
            case .serial(let serial): Self.position(of: serial, in: &serials, insertingIfAbsent: position)
            case .mac(let mac): Self.position(of: mac, in: &macs, insertingIfAbsent: position)
            case .alone: nil
            }
        }

        private static func position(
            of text: String, in table: inout [String: Int], insertingIfAbsent position: Int
        ) -> Int? {
            if let known = table[text] { return known }
            table[text] = position
            return nil
        }
    }

    /// The devices of a reconciliation's findings, by building, room and label; devices without a building last.
    static func devices(of reconciliation: Reconciliation) -> [ReportDevice] {
        let discrepancies = reconciliation.discrepancies
        // The tags findings name, each with the index of the last asset that has it (-1 while none has).
        var assets = IntegerTable(capacity: discrepancies.count)
        for index in discrepancies.indices {
            if let tag = discrepancies[index].vtTag { _ = assets.value(of: tag.number, insertingIfAbsent: -1) }
            if case .holders(_, let holders, _) = discrepancies[index].detail {
                for holder in holders {
                    if let tag = holder.vtTag { _ = assets.value(of: tag.number, insertingIfAbsent: -1) }
                }
            }
        }
        // Only the assets a finding names are looked at: a million clean assets cost a scan, not a dictionary.
        if assets.count > 0 {
            for index in reconciliation.assets.indices {
                // The packed tag: unpacking every asset's values would build its texts too.
                if let tag = reconciliation.assets[index].packed.vtTag, assets[tag.number] != nil {
                    assets.set(Int32(index), for: tag.number)
                }
            }
        }
        var positions = Positions(capacity: discrepancies.count)
        var devices: [ReportDevice] = []
        let texts = SharedTexts.shared
        for index in discrepancies.indices {
            let finding = discrepancies[index]
            let key = self.key(of: finding, index: index, assets: assets)
            if let position = positions.position(of: key, insertingIfAbsent: devices.count) {
                devices[position].findings.append(index)
                continue
            }
            var device = ReportDevice(label: label(of: finding, key: key), findings: [index])
            if case .tag(let number) = key, let asset = Self.asset(number, in: assets) {
                // The three texts read from the packed values: unpacking them would build every text of the asset.
                let values = reconciliation.assets[asset].packed
                device.vtTag = values.vtTag
                device.label = "VT tag " + (values.vtTag?.description ?? "")
                device.building = values.building >= 0 ? texts.string(values.building) : nil
                device.room = values.room >= 0 ? texts.string(values.room) : nil
                device.model = values.model >= 0 ? texts.string(values.model) : nil
            } else {
                device.vtTag = finding.vtTag
            }
            if device.building == nil || device.room == nil {
                switch finding.detail {
                case .missing(_, let building, let room):
                    device.building = device.building ?? building
                    device.room = device.room ?? room
                case .typo(_, _, let building, _, _):
                    device.building = device.building ?? building
                default: break
                }
            }
            devices.append(device)
        }
        for position in devices.indices where devices[position].findings.count > 1 {
            devices[position].findings.sort {
                FindingRanking.isMoreTelling(discrepancies[$0], than: discrepancies[$1])
            }
        }
        return devices.sorted(by: isListedBefore)
    }

    /// The order of the building-and-room view: by building (none last), room (none last), then label.
    static func isListedBefore(_ lhs: ReportDevice, _ rhs: ReportDevice) -> Bool {
        if lhs.building != rhs.building {
            guard let left = lhs.building else { return false }
            guard let right = rhs.building else { return true }
            return left < right
        }
        if lhs.room != rhs.room {
            guard let left = lhs.room else { return false }
            guard let right = rhs.room else { return true }
            return left < right
        }
        return lhs.findings[0] < rhs.findings[0]
    }

    /// The index of the asset with the tag `number`, when there is one.
    private static func asset(_ number: UInt64, in assets: IntegerTable) -> Int? {
        guard let index = assets[number], index >= 0 else { return nil }
        return Int(index)
    }

    private static func key(of finding: Discrepancy, index: Int, assets: IntegerTable) -> Key {
        if let tag = finding.vtTag { return .tag(tag.number) }
        // A shared identifier belongs to the first of its holders that is an asset of the report.
        if case .holders(_, let holders, _) = finding.detail,
            let holder = holders.first(where: { $0.vtTag.map { asset($0.number, in: assets) != nil } ?? false })
        {
            return .tag(holder.vtTag!.number)
        }
        if let serial = finding.serialNumber { return .serial(serial.description) }
        if let mac = finding.macAddress { return .mac(mac.description) }
        if let cns = finding.cnsNumber { return .cns(cns.number) }
        return .alone(index)
    }

    private static func label(of finding: Discrepancy, key: Key) -> String {
        switch key {
        case .tag: "VT tag " + (finding.vtTag?.description ?? holderTag(finding))
        case .serial(let serial): "Serial " + serial
        case .mac(let mac): "MAC " + mac
        case .cns: "CNS " + (finding.cnsNumber?.description ?? "")
        case .alone: finding.sources.first.map { "Row " + $0.spoken } ?? "Finding"
        }
    }

    private static func holderTag(_ finding: Discrepancy) -> String {
        guard case .holders(_, let holders, _) = finding.detail else { return "" }
        return holders.first(where: { $0.vtTag != nil })?.vtTag?.description ?? ""
    }
}
