/// An access point model the department buys, with its stock number and price.
struct AccessPointModel: Sendable, Hashable {
    /// The canonical model, such as `AP-515`.
    var name: String
    /// How many of every hundred devices are this model.
    var share: Int
    /// The department's stock number for the model.
    var stockNumber: String
    /// The billed amount, as the billing sheet writes it.
    var amount: String

    /// The models of the campus, most common first.
    static let catalog: [AccessPointModel] = [
        AccessPointModel(name: "AP-515", share: 50, stockNumber: "NIS-AP515", amount: "$895.00"),
        AccessPointModel(name: "AP-535", share: 20, stockNumber: "NIS-AP535", amount: "$1,195.00"),
        AccessPointModel(name: "AP-635", share: 20, stockNumber: "NIS-AP635", amount: "$1,345.00"),
        AccessPointModel(name: "AP-505H", share: 10, stockNumber: "NIS-AP505H", amount: "$545.00"),
    ]

    /// A model drawn by share.
    static func draw(random: inout SeededRandom) -> AccessPointModel {
        var ticket = random.below(100)
        for model in catalog {
            if ticket < model.share {
                return model
            }
            ticket -= model.share
        }
        return catalog[0]
    }

    /// The catalog entry of a model name.
    static func named(_ name: String) -> AccessPointModel {
        catalog.first { $0.name == name } ?? catalog[0]
    }
}
