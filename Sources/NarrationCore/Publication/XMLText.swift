/// Text and attribute values made safe for XML (XHTML, SMIL, OPF): "&", "<", ">", '"' and "'"
/// become entity references, so an article's words never read as markup. Characters XML 1.0
/// does not allow at all (C0 controls other than tab, line feed and carriage return) are left
/// out; every other character, CJK and emoji included, is written as it is (the documents are UTF-8).
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
