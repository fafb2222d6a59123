/// A position on Earth, in decimal degrees (north and east positive) and metres above sea level.
/// Read only on request (`LocationReader`): the browser shows it only after the user asks.
public struct GeoLocation: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// ISO 6709 as QuickTime writes it: "+52.2097-000.8955+103.640/" (altitude optional).
    public init?(iso6709 text: String) {
        var numbers: [Double] = []
        var current = ""
        for character in text {
            if character == "+" || character == "-" || character == "/" {
                if !current.isEmpty {
                    guard let value = Double(current) else { return nil }
                    numbers.append(value)
                }
                current = character == "/" ? "" : String(character)
                if character == "/" { break }
            } else if character.isNumber || character == "." {
                current.append(character)
            } else {
                return nil
            }
        }
        if !current.isEmpty, let value = Double(current) { numbers.append(value) }
        guard numbers.count >= 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
        self.init(latitude: numbers[0], longitude: numbers[1], altitude: numbers.count > 2 ? numbers[2] : nil)
    }

    /// "52.20970° N, 0.89550° W, 104 m".
    public var description: String {
        func part(_ value: Double, _ positive: String, _ negative: String) -> String {
            let scaled = Int((abs(value) * 100_000).rounded())
            let fraction = String(scaled % 100_000)
            return "\(scaled / 100_000).\(String(repeating: "0", count: 5 - fraction.count))\(fraction)° \(value < 0 ? negative : positive)"
        }
        var text = part(latitude, "N", "S") + ", " + part(longitude, "E", "W")
        if let altitude { text += ", \(Int(altitude.rounded())) m" }
        return text
    }
}
