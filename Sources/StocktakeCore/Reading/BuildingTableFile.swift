/// Reads an account's buildings table: `code,name[,latitude,longitude]`, with or without a header row.
public enum BuildingTableFile {
    /// Loads the table at `path`.
    public static func load(path: String) throws(StocktakeError) -> BuildingTable {
        let file = SourceFile(path: path, role: .register)
        var reader: CSVReader
        do {
            reader = try CSVReader(path: path)
        } catch {
            throw SourceReader.translate(error, file: file)
        }
        var buildings: [Building] = []
        var problem: StocktakeError?
        var first = true
        do {
            try reader.forEachRecord { record in
                let cells = record.strings.map(\.trimmingSpaces)
                guard cells.contains(where: { !$0.isEmpty }) else { return }
                defer { first = false }
                if first, ColumnMapping.key(cells[0]) == "code" { return }
                guard problem == nil else { return }
                guard cells.count >= 2, !cells[0].isEmpty, !cells[1].isEmpty else {
                    problem = .badData(
                        path: path,
                        reason: "line \(record.line) needs a building code and a name (code,name[,latitude,longitude])."
                    )
                    return
                }
                let latitude = cells.count > 2 ? GeoPosition.normalizeLatitude(cells[2]).value : nil
                let longitude = cells.count > 3 ? GeoPosition.normalizeLongitude(cells[3]).value : nil
                buildings.append(
                    Building(code: cells[0].uppercased(), name: cells[1], latitude: latitude, longitude: longitude))
            }
        } catch let error as CSVError {
            throw SourceReader.translate(error, file: file)
        } catch {
            throw .badData(path: path, reason: "\(error)")
        }
        if let problem { throw problem }
        guard !buildings.isEmpty else {
            throw .badData(path: path, reason: "the buildings table is empty; list one building per line as code,name.")
        }
        return BuildingTable(buildings)
    }
}
