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

    /// XMP's `exif:GPSLatitude`/`GPSLongitude` form: "DDD,MM.mmk" or "DDD,MM,SSk" (k = N/S/E/W).
    public init?(xmpLatitude: String, xmpLongitude: String) {
        func degrees(_ text: String, negative: Character, positive: Character) -> Double? {
            guard let reference = text.last, reference == negative || reference == positive else { return nil }
            let parts = text.dropLast().split(separator: ",").map { Double($0) }
            guard (2...3).contains(parts.count), !parts.contains(where: { $0 == nil }) else { return nil }
            let numbers = parts.compactMap { $0 }
            var value = numbers[0] + numbers[1] / 60 + (numbers.count == 3 ? numbers[2] / 3600 : 0)
            if reference == negative { value = -value }
            return value
        }
        guard let latitude = degrees(xmpLatitude, negative: "S", positive: "N"), abs(latitude) <= 90,
              let longitude = degrees(xmpLongitude, negative: "W", positive: "E"), abs(longitude) <= 180 else { return nil }
        self.init(latitude: latitude, longitude: longitude)
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
