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
    /// The building code of each color, in the order the points first show it (`""` for points without one).
    private var colorNames: [String] = []
    /// The color of each point, an index in `colorNames`: points whose building codes are equal share one.
    private var colors: [Int] = []
    /// The first point of each color, where its building's code is written.
    private var firstPoints: [Int] = []

    /// What the map knows of one building code id of the assets.
    private struct Code {
        var text: String?
        /// The building's coordinates in the buildings table, when it has them.
        var position: (latitude: Double, longitude: Double)?
        /// The color of the code, once a point of it is placed.
        var color = -1
    }

    /// The map of `assets`; `flagged` tells, by VT tag number, which have findings.
    init(
        assets: [CleanedAsset], flagged: Set<UInt64>, buildings: BuildingTable?,
        maximumPoints: Int = AssetMap.maximumPoints
    ) {
        var points: [Point] = []
        var colors: [Int] = []
        points.reserveCapacity(min(assets.count, maximumPoints))
        colors.reserveCapacity(min(assets.count, maximumPoints))
        var unplaced = 0
        var placed = 0
        // Each building code id is looked at once, not once per asset; the texts of equal codes share a color,
        // and the totals per color are kept as the points come, in case there are too many to draw each.
        let texts = SharedTexts.shared
        var codes: [Code] = []
        // By text id + 1 (no building is -1): a lookup is a multiply and a probe, not SipHash.
        var codeIndex = IntegerTable()
        var lastId: Int32 = .min
        var lastCode = -1
        var colorOfName: [String: Int] = [:]
        var totals: [Point] = []
        var flaggedTags = IntegerTable(capacity: flagged.count)
        // UInt64.max is no tag's number (and no key of the table).
        for number in flagged where number != .max { flaggedTags.set(0, for: number) }
        let checksFlags = !flagged.isEmpty
        for index in assets.indices {
            let values = assets[index].packed
            let id = values.building
            if id != lastId {
                if let known = codeIndex[UInt64(Int64(id) + 1)] {
                    lastCode = Int(known)
                } else {
                    let text = id >= 0 ? texts.string(id) : nil
                    var code = Code(text: text)
                    if let text, let building = buildings?.building(code: text),
                        let latitude = building.latitude, let longitude = building.longitude
                    {
                        code.position = (latitude, longitude)
                    }
                    lastCode = codes.count
                    codeIndex.set(Int32(lastCode), for: UInt64(Int64(id) + 1))
                    codes.append(code)
                }
                lastId = id
            }
            var point = Point(
                latitude: 0, longitude: 0, building: codes[lastCode].text, assets: 1, flagged: 0,
                isBuildingPosition: false)
            if checksFlags, let tag = values.vtTag, flaggedTags[tag.number] != nil { point.flagged = 1 }
            if let latitude = values.latitude, let longitude = values.longitude {
                point.latitude = latitude
                point.longitude = longitude
            } else if let position = codes[lastCode].position {
                point.latitude = position.latitude
                point.longitude = position.longitude
                point.isBuildingPosition = true
            } else {
                unplaced += 1
                continue
            }
            var color = codes[lastCode].color
            if color < 0 {
                let name = point.building ?? ""
                if let known = colorOfName[name] {
                    color = known
                } else {
                    color = totals.count
                    colorOfName[name] = color
                    totals.append(point)
                    totals[color].assets = 0
                    totals[color].flagged = 0
                }
                codes[lastCode].color = color
            }
            // The sums add in the points' order, as a mean of all of them computes them.
            if totals[color].assets == 0 {
                totals[color].latitude = point.latitude
                totals[color].longitude = point.longitude
            } else {
                totals[color].latitude += point.latitude
                totals[color].longitude += point.longitude
            }
            totals[color].assets += 1
            totals[color].flagged += point.flagged
            placed += 1
            if placed <= maximumPoints {
                points.append(point)
                colors.append(color)
            }
        }
        self.unplaced = unplaced
        colorNames = totals.map { $0.building ?? "" }
        isAggregated = placed > maximumPoints
        guard isAggregated else {
            self.points = points
            self.colors = colors
            var firstPoints = Array(repeating: -1, count: totals.count)
            for position in colors.indices.reversed() { firstPoints[colors[position]] = position }
            self.firstPoints = firstPoints
            return
        }
        // One circle per building, at the mean of its assets' positions.
        for position in totals.indices {
            totals[position].latitude /= Double(totals[position].assets)
            totals[position].longitude /= Double(totals[position].assets)
            totals[position].isBuildingPosition = true
        }
        self.points = totals
        self.colors = Array(totals.indices)
        firstPoints = Array(totals.indices)
    }

    /// The SVG element, or `nil` when no asset has a position.
    func svg() -> String? {
        var page = HTMLBuffer()
        return svg(into: &page) ? page.text : nil
    }

    /// Appends the SVG element to `page`; false, appending nothing, when no asset has a position.
    func svg(into page: inout HTMLBuffer) -> Bool {
        guard !points.isEmpty else { return false }
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
        var flagged = 0
        var assets = 0
        for point in points {
            flagged += point.flagged
            assets += point.assets
        }
        let label =
            "Map of \(counted(assets, "asset")) in \(counted(colorNames.count, "building")), "
            + "\(grouped(flagged)) with findings (shown in red)"
        page.append("<svg class=\"map\" viewBox=\"0 0 ")
        page.append(Int(Self.width))
        page.append(" ")
        page.append(Int(Self.height))
        page.append("\" role=\"img\" aria-label=\"")
        page.append(escaped: label)
        page.append("\"><title>")
        page.append(escaped: label)
        page.append("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#f7f7f4\"/>\n")
        // What follows the coordinates of an asset's circle, by color, unflagged and flagged.
        let endings = Self.palette.map { "\" r=\"3.0\" fill=\"\($0)\"/>\n" }
        let flaggedEndings = Self.palette.map { "\" r=\"3.0\" fill=\"\($0)\" stroke=\"#c00\" stroke-width=\"2\"/>\n" }
        for position in points.indices {
            let point = points[position]
            let x = margin + (point.longitude - minimumLongitude) * stretch * scale
            let y = margin + (maximumLatitude - point.latitude) * scale
            page.append("<circle cx=\"")
            page.append(tenths: x)
            page.append("\" cy=\"")
            page.append(tenths: y)
            guard isAggregated else {
                let color = colors[position] % Self.palette.count
                page.append(point.flagged > 0 ? flaggedEndings[color] : endings[color])
                continue
            }
            page.append("\" r=\"")
            page.append(tenths: 4 + 12 * (Double(point.assets) / Double(assets)).squareRoot())
            page.append("\" fill=\"")
            page.append(Self.palette[colors[position] % Self.palette.count])
            page.append(point.flagged > 0 ? "\" stroke=\"#c00\" stroke-width=\"2\"" : "\"")
            page.append("><title>")
            page.append(escaped: point.building ?? "no building")
            page.append(": ")
            page.append(counted: point.assets, "asset")
            page.append(", ")
            page.append(grouped: point.flagged)
            page.append(" with findings</title></circle>\n")
        }
        // The buildings' codes, at the first point of each.
        for color in colorNames.indices where !colorNames[color].isEmpty {
            let point = points[firstPoints[color]]
            let x = margin + (point.longitude - minimumLongitude) * stretch * scale
            let y = margin + (maximumLatitude - point.latitude) * scale
            page.append("<text x=\"")
            page.append(tenths: x + 5)
            page.append("\" y=\"")
            page.append(tenths: y - 5)
            page.append("\">")
            page.append(escaped: colorNames[color])
            page.append("</text>\n")
        }
        page.append("</svg>")
        return true
    }

    /// Colors that tell buildings apart, dark enough to read on the light ground.
    static let palette = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
}
