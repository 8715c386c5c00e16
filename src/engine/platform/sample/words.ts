/**
 * Vocabulary of the sample world: languages, countries, categories and the
 * word lists used to build channel titles, handles, descriptions and video
 * titles. All names are invented; game/product names are fictional.
 *
 * Changing any list changes generated output: bump WORLD_GENERATOR_VERSION.
 */

export type ContentType = 'longform' | 'shorts' | 'mixed';

/** A name as displayed (possibly native script) and its ASCII form for handles. */
export type NamePair = readonly [display: string, ascii: string];

export interface LanguageDef {
  code: string;
  name: string;
  weight: number;
  countries: ReadonlyArray<readonly [string, number]>;
  /** Given names; [display, ascii]. */
  names: readonly NamePair[];
  /** Native-script title suffixes [display, ascii] (non-Latin scripts only). */
  nativeSuffixes?: readonly NamePair[];
  /** Share of channels using the native script in their title (non-Latin scripts). */
  nativeShare?: number;
  /** Word for "with" in "Cozy Cooking with Jane" (Latin-script languages). */
  withWord?: string;
  /** Channel description templates: {title}, {topic}. */
  descriptions: readonly string[];
  /** Generic video title templates in this language: {thing}, {n}, {year}. */
  videoTitles?: readonly string[];
}

const foldCache = new Map<string, string>();

const latin = (names: string[]): NamePair[] => names.map((n) => [n, asciiFold(n)] as const);

/** Lowercase ASCII fold used for handles: strips accents, keeps [a-z0-9]. */
export function asciiFold(s: string): string {
  let folded = foldCache.get(s);
  if (folded === undefined) {
    folded = foldUncached(s);
    if (foldCache.size < 10_000) foldCache.set(s, folded);
  }
  return folded;
}

function foldUncached(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/ı/g, 'i')
    .replace(/[şŞ]/g, 's')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

export const LANGUAGES: readonly LanguageDef[] = [
  {
    code: 'en', name: 'English', weight: 44,
    countries: [['US', 45], ['GB', 10], ['IN', 12], ['CA', 6], ['AU', 5], ['PH', 4], ['NG', 3], ['ZA', 2], ['IE', 1], ['NZ', 1], ['SG', 1], ['KE', 1]],
    names: latin(['Jane', 'Mark', 'Emma', 'Liam', 'Olivia', 'Noah', 'Ava', 'Ethan', 'Mia', 'Lucas', 'Chloe', 'Jack', 'Grace', 'Ryan', 'Zoe', 'Tyler', 'Hannah', 'Dylan', 'Sophie', 'Nate', 'Lily', 'Sam', 'Ben', 'Kate', 'Max', 'Ella', 'Josh', 'Amy', 'Leo', 'Ruby', 'Owen', 'Maya', 'Caleb', 'Nora', 'Eli', 'Tessa']),
    withWord: 'with',
    descriptions: [
      'Welcome to {title}! New {topic} videos every week. Subscribe and turn on notifications so you never miss one.',
      '{title}: {topic} made simple. Business inquiries in the About tab.',
      'Hi, this is {title}. I make {topic} videos for people who like to learn by watching.',
    ],
  },
  {
    code: 'es', name: 'Spanish', weight: 12,
    countries: [['MX', 30], ['ES', 20], ['AR', 12], ['CO', 12], ['US', 8], ['CL', 6], ['PE', 6], ['VE', 3], ['EC', 3]],
    names: latin(['Lucía', 'Mateo', 'Sofía', 'Diego', 'Valentina', 'Santiago', 'Camila', 'Javier', 'Isabella', 'Carlos', 'Martina', 'Pablo', 'Elena', 'Andrés', 'Paula', 'Tomás', 'Ximena', 'Rocío']),
    withWord: 'con',
    descriptions: [
      '¡Bienvenidos a {title}! Videos nuevos de {topic} cada semana. Suscríbete para no perderte nada.',
      '{title}: todo sobre {topic}. Para contacto comercial, revisa la pestaña Acerca de.',
    ],
    videoTitles: ['{thing}: {n} consejos que nadie te cuenta', 'Probé {thing} durante {n} días', '¿Vale la pena {thing} en {year}?', 'Lo que nadie te dice de {thing}'],
  },
  {
    code: 'pt', name: 'Portuguese', weight: 8,
    countries: [['BR', 88], ['PT', 12]],
    names: latin(['João', 'Ana', 'Pedro', 'Beatriz', 'Lucas', 'Mariana', 'Gabriel', 'Larissa', 'Rafael', 'Juliana', 'Thiago', 'Camila', 'Bruno', 'Letícia']),
    withWord: 'com',
    descriptions: [
      'Bem-vindos ao {title}! Vídeos novos de {topic} toda semana. Se inscreva e ative o sininho.',
      '{title}: {topic} sem complicação. Contato comercial na aba Sobre.',
    ],
    videoTitles: ['Testei {thing} por {n} dias', '{n} dicas de {thing} que ninguém te conta', '{thing} vale a pena em {year}?', 'Reagindo a {thing}'],
  },
  {
    code: 'hi', name: 'Hindi', weight: 7,
    countries: [['IN', 100]],
    names: [['राहुल', 'rahul'], ['प्रिया', 'priya'], ['अमित', 'amit'], ['नेहा', 'neha'], ['विकास', 'vikas'], ['पूजा', 'pooja'], ['अर्जुन', 'arjun'], ['सपना', 'sapna'], ['रोहित', 'rohit'], ['अंजलि', 'anjali']],
    nativeSuffixes: [[' व्लॉग्स', 'vlogs'], [' टीवी', 'tv'], [' की रसोई', 'kitchen'], [' गेमिंग', 'gaming'], [' क्लासेज', 'classes']],
    nativeShare: 0.4,
    withWord: 'with',
    descriptions: [
      '{title} में आपका स्वागत है! हर हफ्ते नए {topic} वीडियो। चैनल को सब्सक्राइब करें।',
      'Welcome to {title}! Best {topic} videos in Hindi. Subscribe karo aur bell icon dabao.',
    ],
    videoTitles: ['{thing} ki puri jankari | {n} tips', '{thing} कैसे करें? आसान तरीका', '{n} din tak {thing} try kiya', '{thing} {year} full guide in Hindi'],
  },
  {
    code: 'id', name: 'Indonesian', weight: 4,
    countries: [['ID', 100]],
    names: latin(['Budi', 'Siti', 'Rizky', 'Dewi', 'Agus', 'Putri', 'Fajar', 'Ayu', 'Dimas', 'Nadia', 'Bayu', 'Intan']),
    withWord: 'bareng',
    descriptions: ['Selamat datang di {title}! Video {topic} baru setiap minggu. Jangan lupa subscribe ya!'],
    videoTitles: ['Mencoba {thing} selama {n} hari', '{n} tips {thing} untuk pemula', 'Review jujur {thing} {year}'],
  },
  {
    code: 'ru', name: 'Russian', weight: 3.5,
    countries: [['RU', 85], ['KZ', 10], ['BY', 5]],
    names: [['Иван', 'ivan'], ['Анна', 'anna'], ['Дмитрий', 'dmitry'], ['Ольга', 'olga'], ['Максим', 'maxim'], ['Катя', 'katya'], ['Сергей', 'sergey'], ['Настя', 'nastya']],
    nativeSuffixes: [[' Play', 'play'], [' ТВ', 'tv'], [' Шоу', 'show'], [' Влог', 'vlog'], [' Лаб', 'lab']],
    nativeShare: 0.7,
    withWord: 'with',
    descriptions: ['Добро пожаловать на канал {title}! Новые видео про {topic} каждую неделю. Подписывайтесь!'],
    videoTitles: ['{n} дней с {thing}', '{thing}: честный обзор {year}', 'Как я освоил {thing} за {n} дней'],
  },
  {
    code: 'de', name: 'German', weight: 3,
    countries: [['DE', 80], ['AT', 10], ['CH', 10]],
    names: latin(['Lukas', 'Lena', 'Felix', 'Anna', 'Jonas', 'Marie', 'Paul', 'Laura', 'Tim', 'Julia', 'Jürgen', 'Jana']),
    withWord: 'mit',
    descriptions: ['Willkommen bei {title}! Jede Woche neue {topic}-Videos. Abonnieren nicht vergessen.'],
    videoTitles: ['Ich habe {thing} {n} Tage getestet', '{n} {thing}-Tipps, die dir niemand verrät', 'Lohnt sich {thing} {year}?'],
  },
  {
    code: 'fr', name: 'French', weight: 3,
    countries: [['FR', 70], ['CA', 12], ['BE', 10], ['CH', 4], ['SN', 2], ['CI', 2]],
    names: latin(['Léa', 'Hugo', 'Chloé', 'Louis', 'Manon', 'Théo', 'Camille', 'Jules', 'Inès', 'Nathan', 'Zoé', 'Gaël']),
    withWord: 'avec',
    descriptions: ['Bienvenue sur {title} ! De nouvelles vidéos {topic} chaque semaine. Abonnez-vous !'],
    videoTitles: ["J'ai testé {thing} pendant {n} jours", '{n} astuces {thing} que personne ne vous dit', '{thing} en {year} : ça vaut le coup ?'],
  },
  {
    code: 'ja', name: 'Japanese', weight: 3,
    countries: [['JP', 100]],
    names: [['さくら', 'sakura'], ['ゆうき', 'yuki'], ['はると', 'haruto'], ['あおい', 'aoi'], ['けんた', 'kenta'], ['みゆ', 'miyu'], ['たくみ', 'takumi'], ['ひなた', 'hinata'], ['りく', 'riku'], ['ゆい', 'yui']],
    nativeSuffixes: [['チャンネル', 'channel'], ['のゲーム実況', 'gaming'], ['ちゃんねる', 'ch'], ['TV', 'tv'], ['の日常', 'nichijou'], ['キッチン', 'kitchen']],
    nativeShare: 0.85,
    withWord: 'with',
    descriptions: ['{title}へようこそ！毎週{topic}の動画を投稿しています。チャンネル登録よろしくお願いします！'],
    videoTitles: ['【{thing}】{n}日間やってみた結果', '{thing}の正直レビュー【{year}】', '初心者向け{thing}講座'],
  },
  {
    code: 'ko', name: 'Korean', weight: 2.5,
    countries: [['KR', 100]],
    names: [['민수', 'minsu'], ['지은', 'jieun'], ['서준', 'seojun'], ['하은', 'haeun'], ['도윤', 'doyun'], ['수빈', 'subin'], ['지호', 'jiho'], ['예린', 'yerin']],
    nativeSuffixes: [['TV', 'tv'], ['의 일상', 'daily'], [' 채널', 'channel'], ['튜브', 'tube'], ['네 부엌', 'kitchen']],
    nativeShare: 0.8,
    withWord: 'with',
    descriptions: ['{title} 채널에 오신 것을 환영합니다! 매주 새로운 {topic} 영상을 올립니다. 구독과 좋아요 부탁드려요!'],
    videoTitles: ['{thing} {n}일 동안 해봤습니다', '{thing} 솔직 리뷰 ({year})', '초보자를 위한 {thing} 꿀팁 {n}가지'],
  },
  {
    code: 'ar', name: 'Arabic', weight: 2.5,
    countries: [['SA', 30], ['EG', 30], ['AE', 10], ['MA', 10], ['IQ', 10], ['DZ', 10]],
    names: [['أحمد', 'ahmed'], ['فاطمة', 'fatima'], ['محمد', 'mohamed'], ['نور', 'nour'], ['يوسف', 'youssef'], ['ليلى', 'layla'], ['عمر', 'omar'], ['سارة', 'sara']],
    nativeSuffixes: [[' تيفي', 'tv'], [' للألعاب', 'games'], [' فلوق', 'vlog'], [' شو', 'show']],
    nativeShare: 0.7,
    withWord: 'with',
    descriptions: ['أهلاً بكم في قناة {title}! فيديوهات {topic} جديدة كل أسبوع. لا تنسوا الاشتراك.'],
    videoTitles: ['جربت {thing} لمدة {n} يوم', '{n} نصائح عن {thing}', 'مراجعة {thing} {year}'],
  },
  {
    code: 'tr', name: 'Turkish', weight: 1.5,
    countries: [['TR', 100]],
    names: latin(['Emre', 'Elif', 'Burak', 'Zeynep', 'Mert', 'Ayşe', 'Can', 'Ece', 'Kaan', 'Selin']),
    withWord: 'ile',
    descriptions: ["{title} kanalına hoş geldiniz! Her hafta yeni {topic} videoları. Abone olmayı unutmayın!"],
    videoTitles: ['{n} gün boyunca {thing} denedim', '{thing} hakkında {n} ipucu', '{thing} {year} incelemesi'],
  },
  {
    code: 'it', name: 'Italian', weight: 1.5,
    countries: [['IT', 95], ['CH', 5]],
    names: latin(['Giulia', 'Marco', 'Chiara', 'Luca', 'Francesca', 'Matteo', 'Sara', 'Davide', 'Alessia', 'Nicolò']),
    withWord: 'con',
    descriptions: ['Benvenuti su {title}! Nuovi video di {topic} ogni settimana. Iscriviti al canale!'],
    videoTitles: ['Ho provato {thing} per {n} giorni', '{n} trucchi su {thing} che nessuno ti dice', '{thing} nel {year}: ne vale la pena?'],
  },
  {
    code: 'vi', name: 'Vietnamese', weight: 1.5,
    countries: [['VN', 100]],
    names: latin(['Minh', 'Linh', 'Huy', 'Trang', 'Tuấn', 'Ngọc', 'Long', 'Mai', 'Phúc', 'Thảo']),
    withWord: 'cùng',
    descriptions: ['Chào mừng đến với {title}! Video {topic} mới mỗi tuần. Đừng quên đăng ký kênh nhé!'],
    videoTitles: ['Thử {thing} trong {n} ngày', '{n} mẹo {thing} cho người mới', 'Đánh giá {thing} {year}'],
  },
  {
    code: 'th', name: 'Thai', weight: 1,
    countries: [['TH', 100]],
    names: [['สมชาย', 'somchai'], ['นภา', 'napa'], ['ธนา', 'thana'], ['มาลี', 'malee'], ['ปิยะ', 'piya'], ['อรุณ', 'arun']],
    nativeSuffixes: [[' ทีวี', 'tv'], [' แชนแนล', 'channel'], [' วล็อก', 'vlog']],
    nativeShare: 0.6,
    withWord: 'with',
    descriptions: ['ยินดีต้อนรับสู่ {title}! คลิป {topic} ใหม่ทุกสัปดาห์ อย่าลืมกดติดตาม'],
  },
  {
    code: 'pl', name: 'Polish', weight: 1,
    countries: [['PL', 100]],
    names: latin(['Kasia', 'Piotr', 'Ola', 'Tomek', 'Magda', 'Kuba', 'Ania', 'Bartek']),
    withWord: 'z',
    descriptions: ['Witajcie na kanale {title}! Nowe filmy o {topic} co tydzień. Subskrybujcie!'],
  },
  {
    code: 'fil', name: 'Filipino', weight: 1,
    countries: [['PH', 100]],
    names: latin(['Juan', 'Maria', 'Paolo', 'Angel', 'Miguel', 'Bea', 'Carlo', 'Jasmine']),
    withWord: 'with',
    descriptions: ['Welcome sa {title}! Bagong {topic} videos every week. Mag-subscribe na kayo!'],
  },
  {
    code: 'bn', name: 'Bengali', weight: 1,
    countries: [['BD', 60], ['IN', 40]],
    names: [['রাহিম', 'rahim'], ['তানিয়া', 'tania'], ['সাকিব', 'sakib'], ['নুসরাত', 'nusrat'], ['আরিফ', 'arif'], ['মিম', 'mim']],
    nativeSuffixes: [[' ভ্লগস', 'vlogs'], [' টিভি', 'tv'], [' রান্নাঘর', 'kitchen']],
    nativeShare: 0.5,
    withWord: 'with',
    descriptions: ['{title} চ্যানেলে স্বাগতম! প্রতি সপ্তাহে নতুন {topic} ভিডিও। সাবস্ক্রাইব করুন!'],
  },
  {
    code: 'nl', name: 'Dutch', weight: 0.5,
    countries: [['NL', 75], ['BE', 25]],
    names: latin(['Daan', 'Sanne', 'Lars', 'Emma', 'Bram', 'Fleur', 'Thijs', 'Noor']),
    withWord: 'met',
    descriptions: ['Welkom bij {title}! Elke week nieuwe {topic} video\'s. Vergeet niet te abonneren!'],
  },
];

export interface CategoryDef {
  name: string;
  weight: number;
  contentTypes: ReadonlyArray<readonly [ContentType, number]>;
  /** Multiplier on typical subscriber counts. */
  sizeFactor: number;
  /** Multiplier on views per subscriber. */
  viewFactor: number;
  /** Lowercase topic word for descriptions. */
  topicWord: string;
  /** Title nouns ("Cooking"). */
  topics: readonly string[];
  /** Brand suffixes ("Kitchen", "TV"). */
  brands: readonly string[];
  /** Subjects of videos. */
  things: readonly string[];
  /** English long-video title templates: {thing} {n} {year} {adj}. */
  videoTitles: readonly string[];
  /** English short title templates. */
  shortTitles: readonly string[];
}

const CT = (longform: number, shorts: number, mixed: number): ReadonlyArray<readonly [ContentType, number]> => [
  ['longform', longform],
  ['shorts', shorts],
  ['mixed', mixed],
];

export const CATEGORIES: readonly CategoryDef[] = [
  {
    name: 'Gaming', weight: 16, contentTypes: CT(45, 20, 35), sizeFactor: 1.1, viewFactor: 1.2, topicWord: 'gaming',
    topics: ['Gaming', 'Plays', 'Speedruns', 'Let\'s Play', 'Retro Games', 'Strategy'],
    brands: ['Gaming', 'Plays', 'GG', 'Arcade', 'Quest', 'Respawn'],
    things: ['Blockcraft', 'Skyfort Royale', 'Dungeon Tactics', 'Neon Drift', 'Star Colony', 'Pixel Farm', 'Shadow Keep', 'Turbo Karts', 'Mecha Arena', 'Frostbound'],
    videoTitles: ['I Played {thing} for {n} Hours Straight', '{thing} but Every {n} Minutes Something Changes', 'Beating {thing} Without Taking Damage', '{thing} Tier List ({year})', 'The Hardest Level in {thing}', '{thing} Speedrun World Record Attempt', 'I Tried the Worst Strategy in {thing}'],
    shortTitles: ['{thing} in 30 seconds #shorts', 'This {thing} trick is illegal #shorts', 'Wait for it… #{thing} #shorts', 'POV: first time playing {thing} #shorts'],
  },
  {
    name: 'Entertainment', weight: 14, contentTypes: CT(35, 30, 35), sizeFactor: 1.3, viewFactor: 1.3, topicWord: 'entertainment',
    topics: ['Entertainment', 'Challenges', 'Reacts', 'Daily', 'Show', 'Vlogs'],
    brands: ['TV', 'Show', 'Live', 'Studios', 'Crew', 'Nation'],
    things: ['24 Hour Challenge', 'Mystery Box', 'Blind Taste Test', 'Hide and Seek', 'Last to Leave', 'Prank Wars', 'Talent Show', 'Road Trip'],
    videoTitles: ['{thing} Gone Wrong', 'We Did the {thing} ({n} People!)', 'Last One to Finish the {thing} Wins ${n},000', 'Reacting to the {adj} {thing}', 'Our {adj} {thing} Ever'],
    shortTitles: ['{thing} went too far 😂 #shorts', 'Did not expect that ending #shorts', '{thing} part {n} #shorts'],
  },
  {
    name: 'People & Blogs', weight: 12, contentTypes: CT(40, 25, 35), sizeFactor: 0.8, viewFactor: 0.9, topicWord: 'lifestyle',
    topics: ['Life', 'Vlogs', 'Diaries', 'Everyday', 'Journal', 'Stories'],
    brands: ['Vlogs', 'Life', 'Diaries', 'Journal', 'Daily', 'World'],
    things: ['Morning Routine', 'Apartment Tour', 'Week in My Life', 'Moving Day', 'Grocery Haul', 'Minimalism', 'Night Routine', 'Day Off'],
    videoTitles: ['My {adj} {thing}', 'A Realistic {thing} ({year})', '{thing} | Vlog #{n}', 'Honest {thing} Update', 'Trying a New {thing} for {n} Days'],
    shortTitles: ['{thing} in 60 seconds #shorts', 'Tiny {thing} upgrade #shorts', 'day {n} of {thing} #shorts'],
  },
  {
    name: 'Music', weight: 10, contentTypes: CT(50, 20, 30), sizeFactor: 1.6, viewFactor: 2.5, topicWord: 'music',
    topics: ['Music', 'Beats', 'Covers', 'Acoustic', 'Lofi', 'Piano', 'Records'],
    brands: ['Music', 'Records', 'Beats', 'Sessions', 'Sound', 'Official'],
    things: ['Midnight Drive', 'Golden Hour', 'Paper Hearts', 'Neon Rain', 'Summer Static', 'Ocean Eyes Cover', 'Lofi Mix', 'Piano Ballad'],
    videoTitles: ['{thing} (Official Music Video)', '{thing} (Lyric Video)', '{thing} – Live Session', '{thing} | Acoustic Version', '{n} Hours of {adj} Lofi to Study To', '{thing} (Cover) {year}'],
    shortTitles: ['{thing} but it hits different #shorts', 'new song snippet 🎵 #shorts', '{thing} live 🎤 #shorts'],
  },
  {
    name: 'Education', weight: 8, contentTypes: CT(70, 10, 20), sizeFactor: 1.0, viewFactor: 0.9, topicWord: 'education',
    topics: ['Learning', 'Academy', 'Explained', 'Math', 'History', 'Languages', 'Study'],
    brands: ['Academy', 'Explained', 'Classroom', 'Tutor', 'Lessons', 'School'],
    things: ['Calculus', 'the French Revolution', 'Photosynthesis', 'English Grammar', 'Statistics', 'World War I', 'Chemistry Basics', 'Public Speaking'],
    videoTitles: ['{thing} Explained in {n} Minutes', '{thing}: The Complete Guide ({year})', 'Why {thing} Is {adj}', 'Learn {thing} in One Video', '{n} {thing} Mistakes Students Make'],
    shortTitles: ['{thing} in one minute #shorts', 'Quick {thing} trick #shorts', 'Did you know? {thing} #shorts'],
  },
  {
    name: 'Howto & Style', weight: 8, contentTypes: CT(45, 25, 30), sizeFactor: 0.9, viewFactor: 1.0, topicWord: 'how-to',
    topics: ['Cooking', 'Kitchen', 'Makeup', 'DIY', 'Crafts', 'Style', 'Home'],
    brands: ['Kitchen', 'Eats', 'Beauty', 'Makes', 'Studio', 'Home'],
    things: ['Sourdough Bread', 'One-Pot Pasta', 'Skincare Routine', 'Closet Makeover', 'Meal Prep', 'Bookshelf Build', 'Fall Outfits', 'Ramen at Home'],
    videoTitles: ['How to Make {thing} (Easy Recipe)', '{thing} for Beginners', '{n} {thing} Ideas You Need to Try', 'The {adj} {thing} I\'ve Ever Made', '{thing} on a Budget ({year})'],
    shortTitles: ['{thing} hack you need #shorts', '{thing} in 30 seconds #shorts', 'Easy {thing} 😋 #shorts'],
  },
  {
    name: 'Science & Technology', weight: 6, contentTypes: CT(65, 10, 25), sizeFactor: 1.0, viewFactor: 1.1, topicWord: 'tech',
    topics: ['Tech', 'Science', 'Engineering', 'Gadgets', 'Coding', 'Space', 'Lab'],
    brands: ['Tech', 'Labs', 'Science', 'Reviews', 'Dev', 'Explains'],
    things: ['the Nova X Phone', 'Home Lab', 'Mechanical Keyboards', 'Rust Programming', 'Solar Panels', 'Quantum Computers', 'the Orbit Tablet', 'Black Holes'],
    videoTitles: ['{thing} Review: {n} Months Later', 'I Built {thing} from Scratch', '{thing} Explained', 'Is {thing} Worth It in {year}?', 'The {adj} Truth About {thing}'],
    shortTitles: ['{thing} in 60 seconds #shorts', 'This {thing} feature is wild #shorts', 'Tech tip #{n} #shorts'],
  },
  {
    name: 'Comedy', weight: 5, contentTypes: CT(25, 45, 30), sizeFactor: 1.1, viewFactor: 1.4, topicWord: 'comedy',
    topics: ['Comedy', 'Sketches', 'Laughs', 'Funny', 'Parody'],
    brands: ['Comedy', 'Laughs', 'Sketches', 'LOL', 'Jokes'],
    things: ['Group Projects', 'Online Meetings', 'Family Dinners', 'Job Interviews', 'Gym Bros', 'Customer Service', 'Roommates'],
    videoTitles: ['If {thing} Were Honest', '{thing} Be Like (Part {n})', 'Types of People at {thing}', '{thing}: The Musical'],
    shortTitles: ['{thing} be like 😂 #shorts', 'POV: {thing} #shorts', 'When {thing} goes wrong #shorts'],
  },
  {
    name: 'Film & Animation', weight: 5, contentTypes: CT(55, 15, 30), sizeFactor: 1.0, viewFactor: 1.3, topicWord: 'animation',
    topics: ['Animation', 'Films', 'Cartoons', 'Stories', 'Cinema'],
    brands: ['Animations', 'Films', 'Pictures', 'Toons', 'Studio'],
    things: ['The Last Lighthouse', 'Clockwork Fox', 'Moon Bakery', 'Paper Dragons', 'Short Film', 'Stop Motion'],
    videoTitles: ['{thing} | Animated Short Film', '{thing} – Episode {n}', 'Making of {thing}', '{thing} (Full Movie, {year})'],
    shortTitles: ['{thing} animation test #shorts', '{thing} in {n} frames #shorts'],
  },
  {
    name: 'Sports', weight: 4, contentTypes: CT(50, 25, 25), sizeFactor: 1.0, viewFactor: 1.1, topicWord: 'sports',
    topics: ['Sports', 'Football', 'Fitness', 'Training', 'Hoops', 'Running'],
    brands: ['Sports', 'Athletics', 'Fitness', 'Training', 'FC', 'Coach'],
    things: ['Marathon Training', 'Home Workout', 'Free Kicks', 'Dunk Contest', 'Leg Day', 'Match Highlights', 'Boxing Drills'],
    videoTitles: ['{thing}: {n} Minute Full Routine', '{thing} Highlights ({year})', 'I Trained Like a Pro for {n} Days', '{adj} {thing} Compilation'],
    shortTitles: ['{thing} tip #shorts', 'Insane {thing} moment #shorts', 'Day {n} of {thing} #shorts'],
  },
  {
    name: 'News', weight: 3, contentTypes: CT(60, 20, 20), sizeFactor: 1.2, viewFactor: 1.5, topicWord: 'news',
    topics: ['News', 'Report', 'Today', 'Daily', 'Briefing'],
    brands: ['News', 'Today', 'Report', 'Daily', 'Now'],
    things: ['Election Results', 'Economy Update', 'Weather Warning', 'Tech Policy', 'City Council', 'Transit Strike'],
    videoTitles: ['{thing}: What We Know So Far', 'LIVE: {thing}', '{thing} Explained | {year}', 'Morning Briefing #{n}: {thing}'],
    shortTitles: ['{thing} in 60 seconds #shorts', 'Breaking: {thing} #shorts'],
  },
  {
    name: 'Kids', weight: 3, contentTypes: CT(55, 20, 25), sizeFactor: 1.5, viewFactor: 3.0, topicWord: 'kids',
    topics: ['Kids', 'Nursery Rhymes', 'Toys', 'Playtime', 'Songs'],
    brands: ['Kids', 'Toys', 'Playhouse', 'Songs', 'Friends'],
    things: ['ABC Song', 'Bath Song', 'Wheels on the Bus', 'Color Train', 'Toy Unboxing', 'Bedtime Story', 'Counting to {n}'],
    videoTitles: ['{thing} + More Nursery Rhymes', '{thing} | Learn with Songs', '{thing} ({n} Minutes Compilation)', 'Fun {thing} for Kids'],
    shortTitles: ['{thing} 🎈 #shorts', 'Sing along: {thing} #shorts'],
  },
  {
    name: 'Travel & Events', weight: 2, contentTypes: CT(65, 15, 20), sizeFactor: 0.8, viewFactor: 1.0, topicWord: 'travel',
    topics: ['Travels', 'Adventures', 'Wanderlust', 'Explorer', 'Journeys'],
    brands: ['Travels', 'Abroad', 'Explores', 'Nomad', 'Adventures'],
    things: ['Tokyo', 'Lisbon', 'Patagonia', 'Street Food Tour', 'Night Train', 'Island Hopping', 'Van Life'],
    videoTitles: ['{n} Days in {thing}', '{thing} Travel Guide ({year})', 'The {adj} Way to See {thing}', 'First Time in {thing}'],
    shortTitles: ['{thing} hidden gem #shorts', '{thing} in 30 seconds #shorts'],
  },
  {
    name: 'Pets & Animals', weight: 2, contentTypes: CT(35, 40, 25), sizeFactor: 0.9, viewFactor: 1.4, topicWord: 'pets',
    topics: ['Pets', 'Animals', 'Cats', 'Dogs', 'Wildlife'],
    brands: ['Pets', 'Paws', 'Critters', 'Zoo', 'Tails'],
    things: ['Puppy Training', 'Cat Zoomies', 'Rescue Story', 'Aquarium Setup', 'Parrot Talks', 'Hedgehog Care'],
    videoTitles: ['{thing}: Day {n}', '{adj} {thing} Compilation', 'Everything About {thing}', '{thing} Update ({year})'],
    shortTitles: ['{thing} 🐾 #shorts', 'He did it again #{thing} #shorts'],
  },
  {
    name: 'Autos & Vehicles', weight: 2, contentTypes: CT(60, 20, 20), sizeFactor: 0.9, viewFactor: 1.1, topicWord: 'car',
    topics: ['Cars', 'Garage', 'Motors', 'Drives', 'Builds'],
    brands: ['Garage', 'Motors', 'Auto', 'Drives', 'Performance'],
    things: ['Project Car', 'Engine Swap', 'Track Day', 'Electric SUV', 'Barn Find', 'Detailing'],
    videoTitles: ['{thing} Part {n}', '{thing} Review ({year})', 'We Bought the {adj} {thing}', '{thing}: Full Build'],
    shortTitles: ['{thing} sound 🔊 #shorts', '{thing} fail #shorts'],
  },
];

export const ADJECTIVES: readonly string[] = [
  'Cozy', 'Curious', 'Daily', 'Epic', 'Happy', 'Lazy', 'Little', 'Mighty', 'Simple', 'Smart', 'Sunny', 'Wild',
  'Clever', 'Crazy', 'Quiet', 'Bold', 'Bright', 'Chill', 'Golden', 'Hidden', 'Honest', 'Lucky', 'Modern', 'Nerdy',
  'Real', 'Urban', 'Tiny', 'Cosmic', 'Retro', 'Savvy',
];

/** Adjectives used inside video titles ("The Best ..."). */
export const TITLE_ADJECTIVES: readonly string[] = ['Best', 'Worst', 'Craziest', 'Easiest', 'Ultimate', 'Most Relaxing', 'Weirdest', 'Perfect', 'Cheapest', 'Honest'];

export const SURNAMES: readonly string[] = ['Miller', 'Carter', 'Brooks', 'Reyes', 'Nakamura', 'Silva', 'Kim', 'Novak', 'Patel', 'Okafor', 'Fischer', 'Moreau', 'Rossi', 'Hughes', 'Lind'];
