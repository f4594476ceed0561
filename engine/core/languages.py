"""The languages the arcade speaks: the one list, for the settings and the catalogues."""

# Languages with a catalogue (English is the source and needs none).
LANGUAGES = ("en", "hu", "cs")
# The language setting: the system's, or one of the catalogues (see engine/core/i18n.py).
CHOICES = ("system", *LANGUAGES)
