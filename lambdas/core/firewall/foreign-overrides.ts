import { type Pattern, rx } from './rule.js';

// \b only knows ASCII letters; these bound a word in any script.
const B = String.raw`(?<!\p{L})`;
const E = String.raw`(?!\p{L})`;

const ES_VERB =
  '(?:ignora|ignore|ignoren|ignorad|olvida|olvide|olviden|omite|omita|descarta|descarte|haz caso omiso (?:de|a)|no hagas caso (?:de|a))';
const ES_NOUN = '(?:instrucciones|indicaciones|ordenes|reglas|directrices)';
const ZH_VERB = '(?:忽略|无视|無視|忽视|忽視|不要理会|不要理會|忘记|忘記|忘掉)';
const ZH_EARLIER = '(?:之前|以前|先前|上面|上述|以上|前面)';
const ZH_ALL = '(?:所有|全部|一切)';
const ZH_NOUN = '(?:指令|指示|说明|說明|规则|規則|提示|命令)';

/**
 * "Ignore all previous instructions" in the languages most often seen in published injection
 * attempts. Written against the prose view: lowercase, Latin accents removed ("précédentes" →
 * "precedentes"), so both accented and unaccented spellings match. Like the English rule, each
 * needs a word that points back at earlier instructions ("anteriores", "vorherigen", "之前").
 */
export const FOREIGN_OVERRIDES: readonly Pattern[] = [
  // Spanish
  {
    view: 'prose',
    re: rx`${B}${ES_VERB}(?: todas| todos)?(?: las| los| tus| sus)? ${ES_NOUN} (?:anteriores|previas|precedentes|de arriba|del sistema|originales)${E}`,
  },
  { view: 'prose', re: rx`${B}${ES_VERB}(?: todas)?(?: las)? (?:tus|sus) ${ES_NOUN}${E}` },
  { view: 'prose', re: rx`${B}${ES_VERB} todas las instrucciones${E}` },
  {
    view: 'prose',
    re: rx`${B}(?:olvida|olvide|ignora|ignore) todo lo (?:anterior|de arriba|que te dijeron)${E}`,
  },
  // French
  {
    view: 'prose',
    re: rx`${B}(?:ignore|ignorez|ignorer|oublie|oubliez|oublier|(?:ne tiens|ne tenez) pas compte (?:de|des|du)|(?:fais|faites) abstraction (?:de|des|du)) (?:toutes )?(?:les |tes |vos )?(?:instructions|consignes|directives|regles|indications) (?:precedentes|anterieures|ci-dessus|du systeme|initiales|dorigine)${E}`,
  },
  {
    view: 'prose',
    re: rx`${B}(?:ignore|ignorez|oublie|oubliez) (?:tes|vos) (?:instructions|consignes|directives)${E}`,
  },
  // German
  {
    view: 'prose',
    re: rx`${B}(?:ignoriere|ignorier|ignoriert|ignorieren sie|vergiss|vergesst|vergessen sie|missachte|missachten sie)(?: alle)?(?: deine| ihre| die| eure| diese)? (?:vorherigen|vorigen|bisherigen|obigen|vorangegangenen|fruheren|ursprunglichen|vorhergehenden) (?:anweisungen|instruktionen|befehle|regeln|vorgaben|anordnungen)${E}`,
  },
  {
    view: 'prose',
    re: rx`${B}(?:ignoriere|ignorier|ignorieren sie|vergiss|vergessen sie|missachte) alle (?:anweisungen|instruktionen|befehle)${E}`,
  },
  {
    view: 'prose',
    re: rx`${B}(?:ignoriere|ignorier|vergiss|ignorieren sie|vergessen sie)(?: alle)? (?:deine|ihre|eure) (?:anweisungen|instruktionen|systemanweisungen|vorgaben)${E}`,
  },
  // Italian
  {
    view: 'prose',
    re: rx`${B}(?:ignora|ignorate|ignori|dimentica|dimenticate|dimentichi|trascura)(?: tutte)?(?: le| tue| sue)? (?:istruzioni|indicazioni|regole|direttive) (?:precedenti|anteriori|di sistema|originali|sopra)${E}`,
  },
  // Portuguese
  {
    view: 'prose',
    re: rx`${B}(?:ignore|ignora|ignorem|esqueca|esquece|esquecam|desconsidere|desconsidera)(?: todas)?(?: as| suas| tuas)? (?:instrucoes|orientacoes|regras|diretrizes) (?:anteriores|previas|acima|do sistema|originais)${E}`,
  },
  // Dutch
  {
    view: 'prose',
    re: rx`${B}(?:negeer|vergeet)(?: alle)?(?: de| je| jouw| uw)? (?:vorige|eerdere|voorgaande|bovenstaande|oorspronkelijke) (?:instructies|aanwijzingen|opdrachten|regels)${E}`,
  },
  // Russian
  {
    view: 'prose',
    re: rx`${B}(?:игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|не обращай внимания на)(?: все)? (?:предыдущие|прежние|прошлые|вышеуказанные|системные|свои|твои|ваши) (?:инструкции|указания|правила|команды)${E}`,
  },
  // Chinese (simplified and traditional)
  {
    view: 'prose',
    re: rx`${ZH_VERB}(?:${ZH_ALL}的?)?${ZH_EARLIER}的?(?:${ZH_ALL}的?)?${ZH_NOUN}`,
  },
  { view: 'prose', re: rx`${ZH_VERB}${ZH_ALL}的?${ZH_NOUN}` },
  // Japanese
  {
    view: 'prose',
    re: /(?:以前|前|上記|これまで|先)の(?:すべての|全ての)?(?:指示|命令|指令|ルール)を(?:すべて|全て)?(?:無視|忘れ)/u,
  },
  // Korean
  {
    view: 'prose',
    re: /(?:이전|앞의|위의)\s?(?:모든\s)?(?:지시|명령|지침)(?:을|를|사항을)?\s?(?:무시|잊어)/u,
  },
];
