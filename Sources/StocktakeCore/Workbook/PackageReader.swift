/// Reads the package parts of a workbook: the content types, relationships and the workbook part's sheet list.
///
/// Part names follow the relationships, so that transitional (`http://schemas.openxmlformats.org/...`) and strict
/// (`http://purl.oclc.org/ooxml/...`) workbooks, and packages whose parts are not under `xl/`, are all found.
struct PackageReader {
    /// One relationship of a part: its id, type (a URI) and target part.
    struct Relationship {
        let id: String
        let type: String
        let target: String

        /// Whether the type's last path component is `kind` (`worksheet`, `sharedStrings`, `officeDocument` ...),
        /// in either the transitional or the strict namespace.
        func hasType(_ kind: String) -> Bool {
            type.split(separator: "/").last.map(String.init) == kind
        }
    }

    /// A sheet listed by the workbook part.
    struct SheetListing {
        let name: String
        let isHidden: Bool
        let relationship: String
    }

    let archive: ZipArchive

    /// The contents of `part`, or nil when the package does not have it and it is not `required`.
    func contents(of part: String, required: Bool) throws(WorkbookError) -> [UInt8]? {
        guard let entry = archive.entry(named: part) else {
            if required { throw .missingPart(file: archive.name, part: part) }
            return nil
        }
        do { return try archive.contents(of: entry) } catch { throw WorkbookError(error) }
    }

    /// The workbook part: the target of the package's `officeDocument` relationship, else the part whose content
    /// type is a workbook's, else `xl/workbook.xml` when there is one; nil when there is none.
    func workbookPart() throws(WorkbookError) -> String? {
        if let target = try relationships(of: "").first(where: { $0.hasType("officeDocument") })?.target,
            archive.entry(named: target) != nil
        {
            return target
        }
        if let types = try contents(of: "[Content_Types].xml", required: false) {
            var found: String?
            try scan(types, part: "[Content_Types].xml") { scanner, tag throws(XMLError) in
                guard found == nil, scanner.isName(tag.name, "Override"),
                    let type = try scanner.attributeString("ContentType", of: tag),
                    type.contains(".sheet.main") || type.contains(".template.main")
                        || type.contains("sheet.macroEnabled.main"),
                    let name = try scanner.attributeString("PartName", of: tag)
                else { return }
                found = Self.resolve(name, from: "")
            }
            if let found, archive.entry(named: found) != nil { return found }
        }
        return archive.entry(named: "xl/workbook.xml") != nil ? "xl/workbook.xml" : nil
    }

    /// The relationships of `part` (from `folder/_rels/name.rels`; the package's own for ""), with targets resolved
    /// to part names; none when the relationships part is missing. External targets are left out.
    func relationships(of part: String) throws(WorkbookError) -> [Relationship] {
        let (folder, file) = Self.split(part)
        let relationshipsPart = folder + "_rels/" + file + ".rels"
        guard let bytes = try contents(of: relationshipsPart, required: false) else { return [] }
        var relationships: [Relationship] = []
        try scan(bytes, part: relationshipsPart) { scanner, tag throws(XMLError) in
            guard scanner.isName(tag.name, "Relationship"),
                try scanner.attributeString("TargetMode", of: tag) != "External",
                let id = try scanner.attributeString("Id", of: tag),
                let type = try scanner.attributeString("Type", of: tag),
                let target = try scanner.attributeString("Target", of: tag)
            else { return }
            relationships.append(Relationship(id: id, type: type, target: Self.resolve(target, from: folder)))
        }
        return relationships
    }

    /// The sheets the workbook part lists, in order, and whether it uses the 1904 date system.
    func sheetList(workbookPart: String) throws(WorkbookError) -> (sheets: [SheetListing], usesDate1904: Bool) {
        guard let bytes = try contents(of: workbookPart, required: true) else { return ([], false) }
        var sheets: [SheetListing] = []
        var usesDate1904 = false
        try scan(bytes, part: workbookPart) { scanner, tag throws(XMLError) in
            if scanner.isName(tag.name, "workbookPr") {
                let value = try scanner.attributeString("date1904", of: tag)
                usesDate1904 = value == "1" || value == "true"
            } else if scanner.isName(tag.name, "sheet"), let name = try scanner.attributeString("name", of: tag),
                let relationship = try scanner.attributeString("id", of: tag)
            {
                let state = try scanner.attributeString("state", of: tag)
                sheets.append(
                    SheetListing(
                        name: name, isHidden: state == "hidden" || state == "veryHidden", relationship: relationship))
            }
        }
        return (sheets, usesDate1904)
    }

    /// Calls `visit` with each start tag of the XML `bytes` of `part`.
    private func scan(
        _ bytes: [UInt8], part: String, _ visit: (XMLScanner, XMLScanner.Tag) throws(XMLError) -> Void
    ) throws(WorkbookError) {
        do {
            try bytes.withUnsafeBufferPointer { buffer throws(XMLError) in
                var scanner = try XMLScanner(bytes: buffer)
                while let token = try scanner.next() {
                    if case .start(let tag) = token { try visit(scanner, tag) }
                }
            }
        } catch {
            throw damaged(part, error)
        }
    }

    /// What `make` reads from the XML `bytes` of `part`.
    func parse<Result>(
        _ bytes: [UInt8], part: String, _ make: (UnsafeBufferPointer<UInt8>) throws(XMLError) -> Result
    ) throws(WorkbookError) -> Result {
        do throws(XMLError) {
            return try bytes.withUnsafeBufferPointer { buffer throws(XMLError) in try make(buffer) }
        } catch {
            throw damaged(part, error)
        }
    }

    /// The error for damaged XML in `part`.
    func damaged(_ part: String, _ error: XMLError) -> WorkbookError {
        if case .documentTypeDeclaration = error { return .entityDeclaration(file: archive.name, part: part) }
        return .damagedPart(file: archive.name, part: part, error)
    }

    /// A part name's folder (with its trailing `/`, or "") and file name.
    static func split(_ part: String) -> (folder: String, file: String) {
        guard let slash = part.lastIndex(of: "/") else { return ("", part) }
        return (String(part[...slash]), String(part[part.index(after: slash)...]))
    }

    /// The part name a relationship's `target` names, relative to `folder` unless it starts with `/`, with `.`
    /// and `..` segments resolved.
    static func resolve(_ target: String, from folder: String) -> String {
        let path = target.hasPrefix("/") ? target : folder + target
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." {
                _ = segments.popLast()
            } else {
                segments.append(segment)
            }
        }
        return segments.joined(separator: "/")
    }
}
