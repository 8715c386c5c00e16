/** The site's fixed lists: its video categories, and languages by ISO 639-1 code (English names). */
export const SITE_CATEGORIES: readonly string[] = [
  'Film & Animation', 'Autos & Vehicles', 'Music', 'Pets & Animals', 'Sports', 'Travel & Events', 'Gaming',
  'People & Blogs', 'Comedy', 'Entertainment', 'News & Politics', 'Howto & Style', 'Education',
  'Science & Technology', 'Nonprofits & Activism',
];

let languages: Array<{ name: string; code: string }> | undefined;

export function siteLanguages(): ReadonlyArray<{ name: string; code: string }> {
  if (!languages) {
    const names = new Intl.DisplayNames(['en'], { type: 'language' });
    languages = [];
    for (let a = 97; a <= 122; a++) {
      for (let b = 97; b <= 122; b++) {
        const code = String.fromCharCode(a, b);
        const name = names.of(code);
        if (name && name !== code) languages.push({ name, code });
      }
    }
    languages.push({ name: 'Filipino', code: 'fil' });
    languages.sort((x, y) => x.name.localeCompare(y.name));
  }
  return languages;
}
