"""English dates as the pages show them: day, month name, year ("5 Dec 2026, 15:11").

Django's own English formats are the United States' (12/05/2026 3:11 p.m.), read the
other way round by most English readers of a French app; a month by its name is read
one way everywhere. The other formats are Django's.
"""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
