import Foundation

/// The report's map: an inline SVG of where the assets are, by building, the flagged ones highlighted, drawn from
/// their GPS positions without map tiles.
///
/// An asset without a position stands at its building's coordinates (the buildings table). Positions are projected
/// onto the page with an equirectangular scaling of their bounding box. Past `maximumPoints` assets, one circle per
/// building is drawn instead, sized by its assets, so that the page stays small.
struct AssetMap: Sendable, Hashable {
    /// One point on the map: an asset, or a building's assets drawn together.
    struct Point: Sendable, Hashable {
        var latitude: Double
        var longitude: Double
        var building: String?
        /// How many assets the point stands for, and how many of them have findings.
        var assets: Int
        var flagged: Int
        /// Whether the position is the building's rather than the asset's own.
        var isBuildingPosition: Bool
    }

    /// Past this many placed assets, the map draws one circle per building.
    static let maximumPoints = 5000
    /// The drawing's size in SVG units.
    static let width = 640.0
    static let height = 400.0

    var points: [Point]
    /// Whether the points are buildings' totals rather than assets.
    var isAggregated: Bool
    /// Assets with no position, whose building has none either: they are not drawn.
    var unplaced: Int

    /// The map of `assets`; `flagged` tells, by VT tag number, which have findings.
    init(
        assets: [CleanedAsset], flagged: Set<UInt64>, buildings: BuildingTable?,
        maximumPoints: Int = AssetMap.maximumPoints
    ) {
        var points: [Point] = []
        var unplaced = 0
        // Read from the packed values, each building's code made a string once, not once per asset.
        let texts = SharedTexts.shared
        var codes: [Int32: String] = [:]
        for index in assets.indices {
            let values = assets[index].packed
            let isFlagged = values.vtTag.map { flagged.contains($0.number) } ?? false
            var code: String?
            if values.building >= 0 {
                code = codes[values.building] ?? texts.string(values.building)
                codes[values.building] = code
            }
            var point = Point(
                latitude: 0, longitude: 0, building: code, assets: 1, flagged: isFlagged ? 1 : 0,
                isBuildingPosition: false)
            if let latitude = values.latitude, let longitude = values.longitude {
                point.latitude = latitude
                point.longitude = longitude
            } else if let code, let building = buildings?.building(code: code),
                let latitude = building.latitude, let longitude = building.longitude
            {
                point.latitude = latitude
                point.longitude = longitude
                point.isBuildingPosition = true
            } else {
                unplaced += 1
                continue
            }
            points.append(point)
        }
        self.unplaced = unplaced
        isAggregated = points.count > maximumPoints
        guard isAggregated else {
            self.points = points
            return
        }
        // One circle per building, at the mean of its assets' positions.
        var byBuilding: [String: Int] = [:]
        var totals: [Point] = []
        for point in points {
            let key = point.building ?? ""
            if let position = byBuilding[key] {
                totals[position].latitude += point.latitude
                totals[position].longitude += point.longitude
                totals[position].assets += 1
                totals[position].flagged += point.flagged
            } else {
                byBuilding[key] = totals.count
                totals.append(point)
            }
        }
        for position in totals.indices {
            totals[position].latitude /= Double(totals[position].assets)
            totals[position].longitude /= Double(totals[position].assets)
            totals[position].isBuildingPosition = true
        }
        self.points = totals
    }

    /// The SVG element, or `nil` when no asset has a position.
    func svg() -> String? {
        guard !points.isEmpty else { return nil }
        var minimumLatitude = Double.infinity
        var maximumLatitude = -Double.infinity
        var minimumLongitude = Double.infinity
        var maximumLongitude = -Double.infinity
        for point in points {
            minimumLatitude = min(minimumLatitude, point.latitude)
            maximumLatitude = max(maximumLatitude, point.latitude)
            minimumLongitude = min(minimumLongitude, point.longitude)
            maximumLongitude = max(maximumLongitude, point.longitude)
        }
        // Equirectangular: a degree of longitude is cos(latitude) as long as a degree of latitude.
        let stretch = cos((minimumLatitude + maximumLatitude) / 2 * Double.pi / 180)
        let spanX = max((maximumLongitude - minimumLongitude) * stretch, 1e-6)
        let spanY = max(maximumLatitude - minimumLatitude, 1e-6)
        let margin = 20.0
        let scale = min((Self.width - 2 * margin) / spanX, (Self.height - 2 * margin) / spanY)
        var buildings: [String] = []
        var colors: [String: Int] = [:]
        for point in points where colors[point.building ?? ""] == nil {
            colors[point.building ?? ""] = buildings.count
            buildings.append(point.building ?? "")
        }
        let flagged = points.reduce(0) { $0 + $1.flagged }
        let assets = points.reduce(0) { $0 + $1.assets }
        let label =
            "Map of \(counted(assets, "asset")) in \(counted(buildings.count, "building")), "
            + "\(grouped(flagged)) with findings (shown in red)"
        var svg = "<svg class=\"map\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" role=\"img\" "
        svg += "aria-label=\"\(HTMLReport.escape(label))\"><title>\(HTMLReport.escape(label))</title>\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#f7f7f4\"/>\n"
        for point in points {
            let x = margin + (point.longitude - minimumLongitude) * stretch * scale
            let y = margin + (maximumLatitude - point.latitude) * scale
            let color = Self.palette[colors[point.building ?? ""]! % Self.palette.count]
            let radius = isAggregated ? 4 + 12 * (Double(point.assets) / Double(assets)).squareRoot() : 3
            let isFlagged = point.flagged > 0
            svg += "<circle cx=\"\(Self.number(x))\" cy=\"\(Self.number(y))\" r=\"\(Self.number(radius))\" "
            svg += isFlagged ? "fill=\"\(color)\" stroke=\"#c00\" stroke-width=\"2\"" : "fill=\"\(color)\""
            if isAggregated {
                let title =
                    "\(point.building ?? "no building"): \(counted(point.assets, "asset")), "
                    + "\(grouped(point.flagged)) with findings"
                svg += "><title>\(HTMLReport.escape(title))</title></circle>\n"
            } else {
                svg += "/>\n"
            }
        }
        // The buildings' codes, at the first point of each.
        for building in buildings where !building.isEmpty {
            guard let point = points.first(where: { $0.building == building }) else { continue }
            let x = margin + (point.longitude - minimumLongitude) * stretch * scale
            let y = margin + (maximumLatitude - point.latitude) * scale
            svg +=
                "<text x=\"\(Self.number(x + 5))\" y=\"\(Self.number(y - 5))\">\(HTMLReport.escape(building))</text>\n"
        }
        svg += "</svg>"
        return svg
    }

    /// Colors that tell buildings apart, dark enough to read on the light ground.
    static let palette = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]

    /// A coordinate to one decimal: enough on a 640-unit drawing, and short.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}
