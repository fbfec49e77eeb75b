// Names as members write them, per language of Discord's client (its language menu) plus
// Arabic and Hebrew: the corpus of test/generation/script-coverage.test.ts. Common given
// and family names of each language, with the letters each alphabet adds to Latin, and a
// few mixed and decorated names as servers see them.
export const NAME_CORPUS: Readonly<Record<string, readonly string[]>> = {
  id: ['Budi Santoso', 'Siti Nurhaliza', 'Dewi Lestari', 'Agus Salim'],
  da: ['Søren Kierkegaard', 'Æbbe Løkke', 'Åse Jørgensen', 'Mads Mikkelsen'],
  de: ['Jürgen Müller', 'Björn Groß', 'Käthe Öztürk', 'Straße der Ölmühle'],
  'en-GB': ['Oliver Smith', 'Amelia O\'Brien', 'Zoë Brontë'],
  'en-US': ['Ada Lovelace', 'Chloë Grace', 'John "Johnny" Doe Jr.'],
  'es-ES': ['José Martínez', 'Íñigo Peña', 'María Ángeles Núñez', '¿Qué tal? ¡Hola!'],
  'es-419': ['Sofía Gutiérrez', 'Joaquín Muñoz', 'Lucía Ibáñez'],
  fr: ['François Hollande', 'Élodie Lefèvre', 'Anaïs Çelik', 'Œdipe Cœur', 'Maëlle Noël'],
  hr: ['Luka Modrić', 'Đurđa Žagar', 'Ivan Čačić', 'Šime Vrsaljko'],
  it: ['Niccolò Machiavelli', 'Città di Castello', 'Perché Sì'],
  lt: ['Žydrūnas Savickas', 'Ąžuolas Čepulis', 'Ėglė Šileikė', 'Įveta Ųla'],
  hu: ['Erdős Pál', 'Győző Ötvös', 'Űrhajós Úr', 'Szőke Tímea'],
  nl: ['Vincent van Gogh', 'IJsbrand de Vries', 'Geëerde Ruïne'],
  no: ['Ærlig Ødegård', 'Åsmund Bjørnstad', 'Solveig Kråkenes'],
  pl: ['Łukasz Wróbel', 'Zofia Żółć', 'Grzegorz Brzęczyszczykiewicz', 'Ślązak Ćwik'],
  'pt-BR': ['João Gonçalves', 'Conceição Araújo', 'Antônio Simões', 'Ângela Luís'],
  ro: ['Ștefan cel Mare', 'Țuțuianu Ionuț', 'Ioana Bârlădeanu', 'Ănuța Îngeru'],
  fi: ['Jääskeläinen Väinö', 'Pekka Äijälä', 'Åke Öhman'],
  'sv-SE': ['Björn Åström', 'Märta Öberg', 'Greta Thunberg'],
  vi: ['Nguyễn Văn An', 'Trần Thị Hương', 'Lê Đức Thọ', 'Phạm Ngọc Thạch', 'Huỳnh Quốc Việt', 'Đặng Thùy Trâm'],
  tr: ['Şükrü Saracoğlu', 'Çağlar Söyüncü', 'İlkay Gündoğan', 'Ilık Ğ Ö Ü'],
  cs: ['Antonín Dvořák', 'Božena Němcová', 'Jiří Trnka', 'Ůžasný Ťuk Ďábel'],
  el: ['Γιώργος Παπαδόπουλος', 'Μαρία Κάλλας', 'Ευάγγελος Βενιζέλος', 'Ϊάσων Ϋψηλάντης'],
  bg: ['Иван Вазов', 'Пенчо Славейков', 'Елисавета Багряна', 'Щерьо Юруков'],
  ru: ['Фёдор Достоевский', 'Анна Ахматова', 'Юрий Гагарин', 'Эдуард Щёголев'],
  uk: ['Тарас Шевченко', 'Леся Українка', 'Ґрицько Їжак', 'Євген Коновалець'],
  hi: ['नरेंद्र मोदी', 'प्रियंका चोपड़ा', 'अमिताभ बच्चन', 'श्रीनिवास रामानुजन', 'ऋषि कपूर', 'ज़ोया अख़्तर'],
  th: ['สวัสดีชาวโลก', 'สมชาย ใจดี', 'ณัฐพล ศรีสุข', 'พิมพ์ชนก ลือวิเศษไพบูลย์', 'ฤทัย ฦๅษา'],
  'zh-CN': ['简体中文', '王伟', '李娜', '张晓明', '刘德华', '欧阳娜娜', '龚俊', '谢霆锋'],
  ja: ['山田太郎', 'さくら', 'ゆうき', 'タナカ・ケンジ', '渡邊 恵', 'ヴィクトリア', '髙橋 﨑'],
  'zh-TW': ['繁體中文', '周杰倫', '蔡英文', '鄧麗君', '劉德華', 'ㄅㄆㄇㄈ 注音'],
  ko: ['김민준', '이서연', '박지훈', '최수아', '정우성', '한글 이름', '뷁햏'],
  // Right to left.
  ar: ['محمد علي', 'فاطمة الزهراء', 'عبد الرحمن', 'يوسف ٢٠٢٤', 'نور الهدى'],
  he: ['שלום עולם', 'דוד בן־גוריון', 'שָׁלוֹם', 'יעל כהן', 'מיכאל 42'],
  // What a server sees too: scripts mixed in one name, and decorations.
  mixed: ['Ada 김민준', 'Kai ✨ カイ', 'Zed 👋 (he/him)', 'Nam Nguyễn | 阮南', 'Lina 💜 ليان', '★彡 Sakura 彡★', '🇯🇵 Taro', 'ถุงเท้า 🧦 Sock', '—•— Dj Ω —•—', 'Ⓐⓑⓒ ①②③']
}
