"""The outline fonts dice faces are drawn in: one table, which Debian package installs each.

The face classifier must read dice whose font nobody here knows, so training
draws numerals from many families of every build (sans, serif, slab, mono,
condensed, rounded, geometric, humanist, display). Some families are held out
of training and used only to measure how the reader does on fonts it never saw
(`Split.HELD_OUT`). A further set of families is reserved for an independent
test and must never be drawn at all, for training or tuning: `RESERVED` names
them, and `font_files` refuses any file that belongs to one.

`models/install_fonts.sh` installs every package named here (training only;
the app and its tests need none of them).
"""

from __future__ import annotations

import enum
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FONT_ROOTS_VARIABLE = "PHASE10_FONT_ROOTS"
"""An environment variable naming further font roots (separated by os.pathsep), searched
first: for a training machine whose fonts are not installed system-wide."""

FONT_ROOTS: tuple[Path, ...] = (
    *(Path(root) for root in os.environ.get(FONT_ROOTS_VARIABLE, "").split(os.pathsep) if root),
    Path("/usr/share/fonts"),
    Path("/usr/local/share/fonts"),
)
"""Where Debian's font packages (and local installs) put their files, in the same
layout (`truetype/<package folder>/...`) under any root named in PHASE10_FONT_ROOTS."""


class Split(enum.Enum):
    """Which use a family is for: drawn in training, or kept to measure unseen fonts.

    `HANDWRITTEN` families are held out too, but measured apart from `HELD_OUT`: scripts
    and hands unlike any print the table held before, so a reader that has seen some
    handwriting is measured on hands it never saw, and the held-out figures keep their
    meaning."""

    TRAIN = "train"
    HELD_OUT = "held-out"
    HANDWRITTEN = "handwritten"


@dataclass(frozen=True)
class FontFamily:
    """One family: its name, the Debian package with its files, its build, its file globs."""

    name: str
    package: str
    build: str
    patterns: tuple[str, ...]  # globs relative to a font root
    split: Split = Split.TRAIN


class MissingFontError(RuntimeError):
    """A family's files are not installed; the message names the package to install."""


class ReservedFontError(ValueError):
    """A font of a family reserved for the independent test was about to be used."""


#: Families reserved for an independent test: never used for training or tuning.
#: Matched (case-insensitively, spaces and hyphens ignored) against file paths.
RESERVED: tuple[str, ...] = (
    "liberation",
    "arimo",
    "tinos",
    "cousine",
    "freefont",
    "freesans",
    "freeserif",
    "freemono",
    "nimbus",
    "c059",
    "p052",
    "urw",
    "bookman",
    "z003",
    "d050000l",
    "texgyre",
    "gyre",
)

_T = Split.TRAIN
_H = Split.HELD_OUT
_W = Split.HANDWRITTEN

#: Every family the renderer may draw numerals in. Held-out families span the builds.
FAMILIES: tuple[FontFamily, ...] = (
    # sans and humanist
    FontFamily("Noto Sans", "fonts-noto-core", "humanist", ("truetype/noto/NotoSans-*.ttf",)),
    FontFamily(
        "Noto Sans Display", "fonts-noto-core", "sans", ("truetype/noto/NotoSansDisplay-*.ttf",)
    ),
    FontFamily(
        "Open Sans",
        "fonts-open-sans",
        "humanist",
        ("truetype/open-sans/OpenSans-[BERLS]*.ttf",),
    ),
    FontFamily("Roboto", "fonts-roboto", "sans", ("truetype/roboto/unhinted/RobotoTTF/*.ttf",)),
    FontFamily(
        "Roboto Condensed",
        "fonts-roboto",
        "condensed",
        ("truetype/roboto/unhinted/RobotoCondensed-*.ttf",),
    ),
    FontFamily("Inter", "fonts-inter", "sans", ("opentype/inter/Inter-*.otf",)),
    FontFamily("Cantarell", "fonts-cantarell", "humanist", ("opentype/cantarell/*.otf",)),
    FontFamily("Cabin", "fonts-cabin", "humanist", ("opentype/cabin/Cabin-*.otf",)),
    FontFamily("Carlito", "fonts-crosextra-carlito", "humanist", ("truetype/crosextra/Carlito*",)),
    FontFamily(
        "DejaVu Sans",
        "fonts-dejavu-core",
        "sans",
        ("truetype/dejavu/DejaVuSans-*.ttf", "truetype/dejavu/DejaVuSans.ttf"),
    ),
    FontFamily(
        "DejaVu Sans Condensed",
        "fonts-dejavu-extra",
        "condensed",
        ("truetype/dejavu/DejaVuSansCondensed*.ttf",),
    ),
    FontFamily(
        "Go",
        "fonts-go",
        "humanist",
        tuple(f"fonts-go/Go-{style}.ttf" for style in ("Regular", "Bold", "Medium", "Italic")),
    ),
    FontFamily("Andika", "fonts-sil-andika", "humanist", ("truetype/andika/Andika-*.ttf",)),
    FontFamily("B612", "fonts-b612", "sans", ("opentype/b612/B612-*.otf",)),
    FontFamily(
        "Linux Biolinum",
        "fonts-linuxlibertine",
        "humanist",
        ("opentype/linux-libertine/LinBiolinum_R*.otf",),
    ),
    FontFamily("Gillius ADF", "fonts-adf-gillius", "humanist", ("truetype/adf/GilliusADF-*.otf",)),
    FontFamily(
        "Universalis ADF",
        "fonts-adf-universalis",
        "sans",
        ("truetype/adf/UniversalisADFStd-*.otf",),
    ),
    FontFamily("Verana Sans", "fonts-adf-verana", "sans", ("truetype/adf/VeranaSans*.otf",)),
    FontFamily("Tuffy", "fonts-tuffy", "sans", ("truetype/tuffy/*.ttf",)),
    FontFamily("M PLUS 1", "fonts-mplus", "sans", ("opentype/mplus/Mplus1-*.otf",)),
    FontFamily("Jura", "fonts-jura", "sans", ("opentype/jura/Jura-*.otf",)),
    FontFamily("Play", "fonts-play", "sans", ("truetype/play/Play-*.ttf",)),
    FontFamily("Karla", "fonts-karla", "sans", ("truetype/karla/Karla-*.otf",)),
    FontFamily("Oxygen", "fonts-oxygen", "humanist", ("truetype/oxygen/Oxygen-Sans*.ttf",)),
    FontFamily("Clear Sans", "fonts-clear-sans", "sans", ("truetype/clear-sans/ClearSans-*.ttf",)),
    FontFamily("OpenDIN", "fonts-opendin", "sans", ("truetype/opendin/OSP-DIN.ttf",)),
    FontFamily(
        "Averia Sans", "fonts-averia-sans-gwf", "humanist", ("truetype/averia-gwf/AveriaSans*.ttf",)
    ),
    FontFamily(
        "National Park",
        "fonts-national-park",
        "sans",
        tuple(f"opentype/national-park/NationalPark-{w}.otf" for w in ("Regular", "Heavy", "Thin")),
    ),
    FontFamily(
        "Routed Gothic",
        "fonts-routed-gothic",
        "sans",
        tuple(f"truetype/routed-gothic/routed-gothic{w}.ttf" for w in ("", "-narrow", "-wide")),
    ),
    FontFamily("OCR-B", "fonts-ocr-b", "sans", ("opentype/ocr-b/OCRB.otf",)),
    FontFamily(
        "CMU Sans Serif",
        "fonts-cmu",
        "sans",
        tuple(f"truetype/cmu/cmun{s}.ttf" for s in ("ss", "sx", "si", "so", "ssdc")),
    ),
    FontFamily(
        "CMU Bright",
        "fonts-cmu",
        "sans",
        tuple(f"truetype/cmu/cmunb{s}.ttf" for s in ("mr", "mo", "sr", "so", "bx")),
    ),
    FontFamily(
        "GFS Neohellenic", "fonts-gfs-neohellenic", "humanist", ("opentype/neohellenic/*.otf",)
    ),
    FontFamily("Libris ADF", "fonts-adf-libris", "humanist", ("truetype/adf/LibrisADFStd-*.otf",)),
    FontFamily(
        "Switzera ADF",
        "fonts-adf-switzera",
        "sans",
        tuple(
            f"truetype/adf/SwitzeraADF-{style}.otf"
            for style in ("Regular", "Bold", "Light", "Cond", "BoldCond", "Ext", "Italic")
        ),
    ),
    FontFamily("Klaudia", "fonts-klaudia-berenika", "humanist",
               ("truetype/klaudia-berenika/Klaudia*.ttf",)),
    FontFamily("Berenika", "fonts-klaudia-berenika", "humanist",
               ("truetype/klaudia-berenika/Berenika*.ttf",)),
    FontFamily("Radis Sans", "fonts-radisnoir", "sans", ("opentype/radisnoir/RadisSans-*.otf",)),
    FontFamily(
        "OpenDyslexic",
        "fonts-opendyslexic",
        "humanist",
        tuple(f"opentype/opendyslexic/OpenDyslexic{v}-*.otf" for v in ("", "Alta")),
    ),
    FontFamily("PT Sans", "fonts-paratype", "humanist", ("truetype/paratype/PTS*.ttf",), _H),
    FontFamily("Lato", "fonts-lato", "humanist", ("truetype/lato/Lato-*.ttf",), _H),
    # geometric and rounded
    FontFamily("Manrope", "fonts-manrope", "geometric", ("truetype/manrope/Manrope-*.ttf",)),
    FontFamily(
        "League Spartan", "fonts-league-spartan", "geometric", ("opentype/league-spartan/*.otf",)
    ),
    FontFamily(
        "Ferrite Core DX", "fonts-ferrite-core", "geometric", ("opentype/ferrite-core/*.otf",)
    ),
    FontFamily("Comfortaa", "fonts-comfortaa", "rounded", ("truetype/comfortaa/*.ttf",)),
    FontFamily(
        "Beteckna",
        "fonts-beteckna",
        "geometric",
        ("truetype/beteckna/Beteckna.ttf", "truetype/beteckna/BetecknaGS*-*.ttf"),
    ),
    FontFamily("Dosis", "fonts-dosis", "rounded", ("opentype/dosis/Dosis-*.otf",)),
    FontFamily("Sora", "fonts-sora", "geometric", ("opentype/sora/Sora-*.otf",)),
    FontFamily(
        "millimetre", "fonts-millimetre", "geometric", ("opentype/millimetre/millimetreA *.otf",)
    ),
    FontFamily("Quicksand", "fonts-quicksand", "rounded", ("truetype/quicksand/*.ttf",), _H),
    # condensed and display
    FontFamily("Bebas Neue", "fonts-bebas-neue", "condensed", ("opentype/bebas-neue/*.otf",)),
    FontFamily(
        "Yanone Kaffeesatz",
        "fonts-yanone-kaffeesatz",
        "condensed",
        ("opentype/yanone-kaffeesatz/*.otf",),
    ),
    FontFamily(
        "Mekanus ADF", "fonts-adf-mekanus", "condensed", ("truetype/adf/MekanusADFStd-*.otf",)
    ),
    FontFamily(
        "PT Sans Narrow", "fonts-paratype", "condensed", ("truetype/paratype/PTN*.ttf",), _H
    ),
    # serif
    FontFamily("Noto Serif", "fonts-noto-core", "serif", ("truetype/noto/NotoSerif-*.ttf",)),
    FontFamily(
        "Noto Serif Display", "fonts-noto-core", "serif", ("truetype/noto/NotoSerifDisplay-*.ttf",)
    ),
    FontFamily("DejaVu Serif", "fonts-dejavu-extra", "slab", ("truetype/dejavu/DejaVuSerif*.ttf",)),
    FontFamily("Caladea", "fonts-crosextra-caladea", "serif", ("truetype/crosextra/Caladea*",)),
    FontFamily(
        "EB Garamond", "fonts-ebgaramond", "serif", ("opentype/ebgaramond/EBGaramond12-*.otf",)
    ),
    FontFamily(
        "Linux Libertine",
        "fonts-linuxlibertine",
        "serif",
        ("opentype/linux-libertine/LinLibertine_R*.otf",),
    ),
    FontFamily("STIX", "fonts-stix", "serif", ("opentype/stix-word/STIX-*.otf",)),
    FontFamily("Gentium", "fonts-sil-gentium", "serif", ("truetype/gentium/Gentium-*.ttf",)),
    FontFamily("Old Standard", "fonts-oldstandard", "serif", ("truetype/fonts-oldstandard/*.ttf",)),
    FontFamily(
        "Accanthis ADF", "fonts-adf-accanthis", "serif", ("truetype/adf/AccanthisADFStd-*.otf",)
    ),
    FontFamily(
        "Baskervald ADF", "fonts-adf-baskervald", "serif", ("truetype/adf/BaskervaldADFStd*.otf",)
    ),
    FontFamily(
        "Berenis ADF", "fonts-adf-berenis", "serif", ("truetype/adf/BerenisADFPro-[BIR]*.otf",)
    ),
    FontFamily("Verana", "fonts-adf-verana", "serif", ("truetype/adf/Verana-*.otf",)),
    FontFamily("Roboto Slab", "fonts-roboto-slab", "slab", ("opentype/roboto/slab/*.otf",)),
    FontFamily("Yrsa", "fonts-yrsa-rasa", "serif", ("truetype/fonts-yrsa-rasa/Yrsa-*.ttf",)),
    FontFamily(
        "Junicode",
        "fonts-junicode",
        "serif",
        tuple(
            f"opentype/junicode/JunicodeTwoBeta-{style}.otf"
            for style in ("Regular", "Bold", "Italic", "BoldItalic", "Condensed", "Expanded")
        ),
    ),
    FontFamily("Cardo", "fonts-cardo", "serif", ("truetype/cardo/Cardo*.ttf",)),
    FontFamily(
        "Century Catalogue",
        "fonts-century-catalogue",
        "serif",
        ("truetype/fonts-century-catalogue/Century-Catalogue.ttf",),
    ),
    FontFamily(
        "Goudy Bookletter 1911",
        "fonts-goudybookletter",
        "serif",
        ("opentype/sortsmill/GoudyBookletter1911.otf",),
    ),
    FontFamily(
        "Quattrocento", "fonts-quattrocento", "serif", ("opentype/quattrocento/Quattrocento-*.otf",)
    ),
    FontFamily(
        "CMU Serif",
        "fonts-cmu",
        "serif",
        tuple(f"truetype/cmu/cmun{s}.ttf" for s in ("rm", "bx", "ti", "bi", "sl", "rb")),
    ),
    FontFamily(
        "CMU Concrete",
        "fonts-cmu",
        "serif",
        tuple(f"truetype/cmu/cmuno{s}.ttf" for s in ("rm", "bx", "ti", "bi")),
    ),
    FontFamily("GFS Didot", "fonts-gfs-didot", "serif", ("opentype/didot/GFSDidot*.otf",)),
    FontFamily("GFS Artemisia", "fonts-gfs-artemisia", "serif", ("opentype/artemisia/*.otf",)),
    FontFamily(
        "Averia Serif", "fonts-averia-serif-gwf", "serif", ("truetype/averia-gwf/AveriaSerif*.ttf",)
    ),
    FontFamily(
        "Ikarius ADF", "fonts-adf-ikarius", "serif", ("truetype/adf/IkariusADFStd-*.otf",)
    ),
    FontFamily("Oldania ADF", "fonts-adf-oldania", "serif", ("truetype/adf/OldaniaADFStd-*.otf",)),
    FontFamily(
        "Romande ADF", "fonts-adf-romande", "serif", ("truetype/adf/RomandeADFStd-*.otf",)
    ),
    FontFamily(
        "Tribun ADF",
        "fonts-adf-tribun",
        "serif",
        tuple(
            f"truetype/adf/TribunADFStd-{style}.otf"
            for style in ("Regular", "Bold", "Italic", "Cond", "BoldCond", "ExtraBold")
        ),
    ),
    FontFamily("Jara", "fonts-linex", "serif", ("truetype/linex/Jara*.ttf",)),
    FontFamily("Quercus", "fonts-linex", "serif", ("truetype/linex/Quercus*.ttf",)),
    FontFamily("Charis SIL", "fonts-sil-charis", "slab", ("truetype/charis/*.ttf",), _H),
    FontFamily("PT Serif", "fonts-paratype", "serif", ("truetype/paratype/PTF*.ttf",), _H),
    FontFamily("Vollkorn", "fonts-vollkorn", "serif", ("truetype/vollkorn/*.ttf",), _H),
    # monospaced
    FontFamily(
        "DejaVu Sans Mono", "fonts-dejavu-core", "mono", ("truetype/dejavu/DejaVuSansMono*.ttf",)
    ),
    FontFamily("Go Mono", "fonts-go", "mono", ("fonts-go/Go-Mono*.ttf",)),
    FontFamily("Fira Code", "fonts-firacode", "mono", ("truetype/firacode/*.ttf",)),
    FontFamily(
        "JetBrains Mono", "fonts-jetbrains-mono", "mono", ("truetype/jetbrains-mono/*.ttf",)
    ),
    FontFamily("Inconsolata", "fonts-inconsolata", "mono", ("truetype/inconsolata/*.otf",)),
    FontFamily("Anonymous Pro", "fonts-anonymous-pro", "mono", ("truetype/anonymous-pro/*.ttf",)),
    FontFamily(
        "Fantasque Sans Mono",
        "fonts-fantasque-sans",
        "mono",
        ("opentype/fantasque-sans/Normal/OTF/*.otf",),
    ),
    FontFamily("Hermit", "fonts-hermit", "mono", ("truetype/hermit/*.otf",)),
    FontFamily("Agave", "fonts-agave", "mono", ("truetype/agave/*.ttf",)),
    FontFamily("M PLUS 1 Code", "fonts-mplus", "mono", ("opentype/mplus/Mplus1Code-*.otf",)),
    FontFamily("B612 Mono", "fonts-b612", "mono", ("opentype/b612/B612Mono-*.otf",)),
    FontFamily("Courier Prime", "fonts-courier-prime", "mono",
               ("opentype/courier-prime/Courier Prime*.otf",)),
    FontFamily("GNU Typewriter", "fonts-gnutypewriter", "mono",
               ("truetype/gnutypewriter/GNUTypewriter.ttf",)),
    FontFamily("Oxygen Mono", "fonts-oxygen", "mono", ("truetype/oxygen/OxygenMono-*.ttf",)),
    FontFamily("mononoki", "fonts-mononoki", "mono", ("truetype/mononoki/mononoki-*.ttf",)),
    FontFamily(
        "CMU Typewriter",
        "fonts-cmu",
        "mono",
        tuple(f"truetype/cmu/cmun{s}.ttf" for s in ("tt", "tb", "it", "st", "btl")),
    ),
    FontFamily("Monoid", "fonts-monoid", "mono", ("truetype/monoid/Monoid-*.ttf",)),
    FontFamily(
        "League Mono",
        "fonts-league-mono",
        "mono",
        tuple(
            f"opentype/league-mono/LeagueMono-{style}.otf"
            for style in ("Regular", "Bold", "Light", "NarrowRegular", "NarrowBold",
                          "ExtendedRegular", "CondensedBold")
        ),
    ),
    FontFamily("IBM 3270", "fonts-3270", "mono", ("truetype/3270/3270*.ttf",)),
    FontFamily("OCR-A", "fonts-ocr-a", "mono", ("truetype/ocr-a/OCRA*.ttf",)),
    FontFamily("Noto Sans Mono", "fonts-noto-mono", "mono", ("truetype/noto/NotoSansMono-*.ttf",)),
    FontFamily("Hack", "fonts-hack", "mono", ("truetype/hack/*.ttf",), _H),
    FontFamily("PT Mono", "fonts-paratype", "mono", ("truetype/paratype/PTM*.ttf",), _H),
    # scripts and hands: a household's dice may be printed in one (a chancery script, a
    # marker's hand), and a reader that never saw one reads it wrong for sure
    FontFamily("Dancing Script", "fonts-dancingscript", "script",
               ("opentype/dancingscript/*.otf",)),
    FontFamily("Havana", "fonts-havana", "script", ("opentype/havana/*.otf",)),
    FontFamily("Kristi", "fonts-kristi", "script", ("truetype/kristi/*.ttf",)),
    FontFamily("Leckerli One", "fonts-leckerli-one", "script", ("truetype/leckerli-one/*.ttf",)),
    FontFamily("Humor Sans", "fonts-humor-sans", "hand", ("truetype/humor-sans/*.ttf",)),
    FontFamily("Rufscript", "fonts-rufscript", "hand", ("truetype/rufscript/*.ttf",)),
    FontFamily("SJ fonts", "fonts-sjfonts", "hand", ("truetype/sjfonts/*.ttf",)),
    FontFamily("Tomson Talks", "fonts-tomsontalks", "hand", ("truetype/tomsontalks/*.ttf",)),
    FontFamily("Because We Had To", "fonts-bwht", "hand", ("opentype/bwht/*.otf",)),
    FontFamily("Comic Neue", "fonts-comic-neue", "hand", ("opentype/comic-neue/*.otf",)),
    FontFamily("Purisa", "fonts-tlwg-purisa-ttf", "hand", ("truetype/tlwg/Purisa*.ttf",)),
    FontFamily("Klee One", "fonts-klee", "hand", ("truetype/klee/*.ttf",)),
    FontFamily("Yusei Magic", "fonts-yusei-magic", "hand", ("truetype/yusei-magic/*.ttf",)),
    FontFamily("Kiloji", "fonts-kiloji", "hand", ("truetype/kiloji/*.ttf",)),
    FontFamily("Cabin Sketch", "fonts-cabinsketch", "hand", ("truetype/cabinsketch/*.ttf",)),
    FontFamily("Femke Klaver", "fonts-femkeklaver", "hand", ("truetype/femkeklaver/*.ttf",)),
    FontFamily("Lobster", "fonts-lobster", "script", ("opentype/lobster/*.otf",)),
    FontFamily("Lobster Two", "fonts-lobstertwo", "script", ("opentype/lobstertwo/*.otf",)),
    FontFamily("Seto", "fonts-seto", "hand", ("truetype/seto/setofont.ttf",)),
    FontFamily("Kouzan Mouhitsu", "fonts-kouzan-mouhitsu", "hand",
               ("truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf",)),
    FontFamily("Kaushan Script", "fonts-kaushanscript", "script",
               ("opentype/kaushanscript/*.otf",), _W),
    FontFamily("Ecolier", "fonts-ecolier-court", "script", ("truetype/ecolier-court/*.ttf",), _W),
    FontFamily("Breip", "fonts-breip", "hand", ("truetype/breip/*.ttf",), _W),
    FontFamily("DKG handwriting", "fonts-dkg-handwriting", "hand",
               ("truetype/fifthhorseman/dkg*.ttf",), _W),
)


def packages(split: Split | None = None) -> tuple[str, ...]:
    """Every Debian package the table draws on (only `split`'s families when given), once
    each, in a stable order."""
    return tuple(
        sorted({f.package for f in FAMILIES if split is None or f.split is split})
    )


def _squash(text: str) -> str:
    return re.sub(r"[\s_\-]", "", text.lower())


def is_reserved(path: str | Path) -> bool:
    """Whether a font file belongs to a family kept for the independent test."""
    squashed = _squash(str(path))
    return any(name in squashed for name in RESERVED)


@cache
def _family_files(family: FontFamily) -> tuple[Path, ...]:
    # A file found under two roots (the same relative path) is taken from the first.
    found: dict[Path, Path] = {}
    for root in FONT_ROOTS:
        for pattern in family.patterns:
            for path in sorted(root.glob(pattern)):
                if path.is_file():
                    found.setdefault(path.relative_to(root), path)
    return tuple(found[name] for name in sorted(found))


#: The builds of the scripts and hands (`Split.HANDWRITTEN` is all of them).
HANDWRITTEN_BUILDS: tuple[str, ...] = ("script", "hand")


def font_files(
    split: Split, *, require: bool = True, builds: tuple[str, ...] | None = None
) -> tuple[Path, ...]:
    """The installed files of every family of `split` (of those `builds` only, when given),
    sorted (so a seed picks the same file).

    With `require`, a family with no installed file raises MissingFontError naming its
    package; without, such families are skipped. A reserved file raises ReservedFontError.
    """
    files: list[Path] = []
    missing: list[FontFamily] = []
    for family in FAMILIES:
        if family.split is not split or (builds is not None and family.build not in builds):
            continue
        found = _family_files(family)
        if not found:
            missing.append(family)
        for path in found:
            if is_reserved(path):
                raise ReservedFontError(f"{path} belongs to a reserved family; never draw it")
            files.append(path)
    if missing and require:
        names = ", ".join(f"{f.name} ({f.package})" for f in missing)
        raise MissingFontError(
            f"font families not installed: {names}; run `sudo bash models/install_fonts.sh`"
        )
    return tuple(files)
