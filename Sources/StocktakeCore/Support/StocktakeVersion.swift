/// The version `stocktake --version` prints.
public enum StocktakeVersion {
    public static let current = "0.1.0"
}
