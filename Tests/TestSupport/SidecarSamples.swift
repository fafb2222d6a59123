/// XMP sidecars as other tools write them, for the tests that rating must leave byte for byte.
public enum SidecarSamples {
    /// "Café Zürich" in ISO-8859-1: é is the single byte 0xE9, ü 0xFC (invalid as UTF-8).
    public static func latin1(rating: Int) -> [UInt8] {
        let head = Array("""
        <?xml version="1.0" encoding="ISO-8859-1"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="\(rating)">
           <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Caf
        """.utf8)
        let tail = Array("""
        </rdf:li></rdf:Alt></dc:description>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>

        """.utf8)
        return head + [0xE9] + Array(" Z".utf8) + [0xFC] + Array("rich".utf8) + tail
    }
}
