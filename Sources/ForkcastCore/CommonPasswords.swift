/// Passwords of eight or more characters that lead the published lists of leaked passwords
/// (lower-cased). Short ones are already refused by the length rule.
public enum CommonPasswords {
    public static let all: Set<String> = [
        "password", "password1", "password12", "password123", "password1234", "passw0rd", "p@ssw0rd", "p@ssword",
        "12345678", "123456789", "1234567890", "12345678910", "0123456789", "87654321", "987654321", "9876543210",
        "11111111", "00000000", "12341234", "12121212", "11223344", "112233445566", "123123123", "123321123",
        "1q2w3e4r", "1q2w3e4r5t", "1qaz2wsx", "1qaz2wsx3edc", "q1w2e3r4", "q1w2e3r4t5", "qazwsxedc", "zaq12wsx",
        "qwertyui", "qwertyuiop", "qwerty12", "qwerty123", "qwerty1234", "asdfghjk", "asdfghjkl", "zxcvbnm1",
        "iloveyou", "iloveyou1", "sunshine", "princess", "football", "baseball", "basketball", "superman",
        "starwars", "whatever", "trustno1", "letmein1", "letmein123", "welcome1", "welcome123", "changeme",
        "changeme1", "admin123", "administrator", "abc12345", "abcd1234", "abcdefgh", "computer", "internet",
        "michael1", "charlie1", "jennifer", "jordan23", "liverpool", "chelsea1", "arsenal1", "mustang1",
        "shadow12", "master12", "monkey12", "dragon12", "freedom1", "hello123", "secret12", "samsung1",
        "football1", "iloveyou2", "princess1", "sunshine1", "michelle", "jessica1", "danielle", "elizabeth",
        "cocacola", "pokemon1", "corvette", "mercedes", "ferrari1", "startrek", "matrix12", "blink182",
        "forkcast", "forkcast1", "mealplan", "mealplanner", "foodlog1", "caloriecount",
    ]
}
