"""Word lists the strict detector uses: function words of English, German, French and Italian
(left out of a free-text value's content words), ordinal words and company legal forms."""

# fmt: off
STOPWORDS: frozenset[str] = frozenset((
    "a", "an", "the", "of", "for", "in", "on", "at", "to", "and", "or", "with", "by", "from",
    "as", "is", "was", "were", "be", "been", "has", "have", "had", "that", "this", "it", "its",
    "his", "her", "their", "he", "she", "they", "we", "you", "i", "since", "per", "into", "over",
    "under", "about", "der", "die", "das", "den", "dem", "des", "und", "oder", "mit", "von",
    "zu", "im", "am", "ein", "eine", "einen", "ist", "war", "seit", "fur", "le", "la", "les",
    "l", "de", "du", "des", "et", "ou", "avec", "pour", "en", "un", "une", "est", "au", "aux",
    "sur", "depuis", "il", "lo", "gli", "i", "di", "e", "o", "con", "per", "un", "una", "nel",
    "nella", "del", "della", "al", "alla", "da", "dal",
))
#: English ordinal words, first to thirty-first (day numbers in dates).
ORDINALS: tuple[str, ...] = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
    "eighteenth", "nineteenth", "twentieth", "twenty-first", "twenty-second", "twenty-third",
    "twenty-fourth", "twenty-fifth", "twenty-sixth", "twenty-seventh", "twenty-eighth",
    "twenty-ninth",
    "thirtieth", "thirty-first",
)
#: Legal-form suffixes of company names, as their folded letters joined ("S.à r.l." -> "sarl",
#: "S.p.A." -> "spa"): Swiss, German, French, Italian, English and Benelux forms.
LEGAL_FORMS: frozenset[str] = frozenset((
    "ag", "gmbh", "kg", "kgaa", "ohg", "gbr", "ug", "se", "eg", "sa", "sarl", "sagl", "sas",
    "sasu", "snc", "srl", "spa", "sapa", "ltd", "limited", "inc", "incorporated", "corp",
    "corporation", "llc", "llp", "plc", "co", "cie", "bv", "nv",
))
#: Words that join a legal form to a name ("Meier und Co.", "Dubois et Cie").
LEGAL_FORM_JOINERS: frozenset[str] = frozenset(("and", "und", "et", "e"))
# fmt: on
