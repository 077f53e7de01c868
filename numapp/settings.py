"""Settings for Num scores: one module, driven by environment variables.

The defaults need no server: SQLite in var/, a local-memory cache, Celery on kombu's
filesystem transport under var/. Production sets DATABASE_URL, REDIS_URL, SECRET_KEY,
DEBUG=0 and ALLOWED_HOSTS (see docs/deployment.md).
"""

import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from web.env import env_bool, env_int, env_list, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", True)


def _secret_key() -> str:
    # Production must bring its own key; development keeps a generated one in var/
    # so that sessions survive a restart.
    key = env_str("SECRET_KEY")
    if key:
        return key
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "allauth",
    "allauth.account",
    "scoring",
    "accounts",
]

MIDDLEWARE = [
    "web.middleware.RequestIDMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "web.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "web.middleware.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "scoring.device.DeviceMiddleware",
    "scoring.access.GoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "web.middleware.OwnErrorPagesMiddleware",
    "web.middleware.DiskFullMiddleware",
]

ROOT_URLCONF = "numapp.urls"
WSGI_APPLICATION = "numapp.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scoring.pwa.context",
                "scoring.device.context",
                "scoring.parts.context",
            ],
            "builtins": ["scoring.templatetags.num"],
        },
    },
]

# The parts of scoring's pages that the account's side draws (accounts' partials), named here
# so that scoring never names accounts, in its code or its templates (tests/test_layers.py).
SCORING_PAGE_PARTS = {
    "known_names": "accounts/_known_names.html",
    "who_are_you": "accounts/_who_are_you.html",
    "sheet_owner": "accounts/_sheet_owner.html",
}

DATABASES = {
    "default": dj_database_url.parse(
        env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite")) or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Several processes (web and worker) share the file. Every transaction starts with
    # BEGIN IMMEDIATE, so a writer takes the write lock first and never fails half-way with
    # "database is locked"; `timeout` is how long it waits for that lock (SQLite's busy
    # timeout). WAL lets readers go on while one process writes, and with synchronous=NORMAL a
    # commit does not wait for the disk (a power cut may lose the last commits, never corrupt
    # the file).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # The test database is a file, not shared memory: the ASGI server the browser tests start
    # (tests/asgi_server.py) answers from its own threads, each with its own connection.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "web.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    # Each process its own: the QR codes (scoring/qr.py), the score boards of the last minute and the
    # card pickers (scoring/views.py board_html, num.card_hands; docs/performance.md).
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 10_000}}
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# allauth: email + password, verification by a code typed in the same browser.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# An email that has an account gets the same page and one mail ("you have an account"), and
# the same work: the password is hashed either way (accounts/forms.py, docs/security.md).
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}
ACCOUNT_RATE_LIMITS = {
    # `key` is the email *and* the client address (accounts/adapter.py): a stranger's wrong
    # passwords never lock the owner out; one address gets 10 failures a minute in all.
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
}
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Num scores <scores@localhost>")

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True
# English dates by the month's name, not in the United States' order (numapp/formats/en/formats.py).
FORMAT_MODULE_PATH = ["numapp.formats"]

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "web.storage.StaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("MAX_REQUEST_BYTES", 64 * 1024, minimum=1024)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["scoring.api.auth.DjangoSessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's JSON parser with limits: depth ≤ 32, no NUL or lone surrogate (scoring/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["scoring.api.parsers.JSONParser"],
    # drf-spectacular's, documenting the request bodies as the views read them (scoring/api/schema.py).
    "DEFAULT_SCHEMA_CLASS": "scoring.api.schema.BodySchema",
    "EXCEPTION_HANDLER": "scoring.api.errors.exception_handler",
    # Per client and scope, for the API's views and the pages' (web/ratelimit.py).
    "DEFAULT_THROTTLE_RATES": {
        "score": env_str("THROTTLE_SCORE", "120/min"),
        "sheet_create": env_str("THROTTLE_SHEET_CREATE", "30/min"),
        "round_write": env_str("THROTTLE_ROUND_WRITE", "120/min"),
        "admin_login": env_str("THROTTLE_ADMIN_LOGIN", "10/5m"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Num scores API",
    "DESCRIPTION": "Scores for the Num card games: score a game, keep score sheets.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # One operation per game for the endpoints whose body is the game's; links between a sheet's
    # operations (scoring/api/schema.py).
    "PREPROCESSING_HOOKS": ["scoring.api.schema.one_operation_per_game"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "scoring.api.schema.required_bodies",
        "scoring.api.schema.sheet_links",
    ],
    # Every endpoint works without credentials (outsiders get 404, not 401): the
    # edit and share tokens are documented as optional header parameters instead.
    "AUTHENTICATION_WHITELIST": [],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The path converters of web/converters.py, described as they match.
    "PATH_CONVERTER_OVERRIDES": {
        "sheet": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"},
        "token": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
        "num": {"type": "integer", "minimum": 0, "maximum": 999999999},
    },
}

# /readyz fails with less than this free for the SQLite file (web/health.py): writes are near failing.
DATABASE_MIN_FREE_MB = env_int("DATABASE_MIN_FREE_MB", 64, minimum=0)

# Anonymous sheets live this long; the purge runs this often.
# The live table (scoring/live.py): announced through Redis when there is one, else in this
# process; each process holds at most LIVE_MAX_STREAMS open streams (then 503: the phone polls).
LIVE_REDIS_URL = REDIS_URL
LIVE_MAX_STREAMS = env_int("LIVE_MAX_STREAMS", 5000, minimum=1)
ANONYMOUS_SHEET_TTL = timedelta(hours=env_int("ANONYMOUS_SHEET_TTL_HOURS", 48, minimum=1))
PURGE_INTERVAL_SECONDS = env_int("PURGE_INTERVAL_SECONDS", 15 * 60, minimum=1)
PURGE_BATCH_SIZE = env_int("PURGE_BATCH_SIZE", 5000, minimum=1)
# The global leaderboards rank a player who chose a public name once they have played this many games.
LEADERBOARD_MIN_GAMES = env_int("LEADERBOARD_MIN_GAMES", 3, minimum=1)
PURGE_PAUSE_MS = env_int("PURGE_PAUSE_MS", 0)

# Celery: Redis when REDIS_URL is set, else kombu's filesystem transport under var/,
# which needs no server (see docs/deployment.md).
CELERY_QUEUE_DIR = VAR_DIR / "celery"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {}
else:
    CELERY_BROKER_URL = "filesystem://"
    for sub in ("queue", "processed", "control"):
        (CELERY_QUEUE_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_QUEUE_DIR / "queue"),
        "data_folder_out": str(CELERY_QUEUE_DIR / "queue"),
        "processed_folder": str(CELERY_QUEUE_DIR / "processed"),
        "control_folder": str(CELERY_QUEUE_DIR / "control"),
        "store_processed": False,
    }
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "purge-expired-sheets": {
        "task": "scoring.tasks.purge_expired_sheets",
        "schedule": PURGE_INTERVAL_SECONDS,
    },
}

# Security: production values unless DEBUG; check --deploy must pass with DEBUG=0.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_ENGINE = "web.sessions"  # database sessions that ignore malformed cookies
X_FRAME_OPTIONS = "DENY"
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]

# Proxies and cookies (docs/deployment.md "Behind a load balancer", docs/security.md).
# How many proxies in front of the app append to X-Forwarded-For: one number decides
# the client address for every limiter (web/clientip.py): the page limits, DRF's
# throttles and allauth's (through the account adapter).
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# No script reads these cookies: the pages' forms carry the CSRF token, and the
# page's language comes from <html lang>.
CSRF_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SECURE = not DEBUG
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"

# Every log line goes to stderr, which the Procfile's processes write to (the access log
# goes to stdout, web/accesslog.py), through the root logger (which a Celery worker takes over with its
# own format). Django's default logging prints nothing with DEBUG=0 (its console handler
# is for DEBUG only and ADMINS is empty), so a 500 would leave no trace: here django.request
# logs it with its traceback and the request id (web/middleware.py) that the response's
# X-Request-ID header carries. 4xx answers are in the access log only.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "web.middleware.RequestIDFilter"},
        "redact_urls": {"()": "web.accesslog.RedactURLFilter"},
    },
    "formatters": {
        "bare": {"format": "%(message)s"},
        "line": {"format": "%(asctime)s %(levelname)s %(name)s [request_id=%(request_id)s] %(message)s"},
    },
    "handlers": {
        "access": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "bare"},
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "filters": ["request_id", "redact_urls"],
            "formatter": "line",
        },
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        # No handler of its own (Django's DEBUG-only console and mail_admins): it propagates to root.
        "django": {"handlers": [], "level": "INFO"},
        "django.request": {"level": "ERROR"},
        "numapp": {"level": env_str("LOG_LEVEL", "INFO")},
        "web": {"level": env_str("LOG_LEVEL", "INFO")},
        # One line per request on stdout (web/accesslog.py AccessLog); ACCESS_LOG=0 turns it off.
        "numapp.access": {
            "handlers": ["access"] if env_bool("ACCESS_LOG", True) else [],
            "level": "INFO",
            "propagate": False,
        },
        "scoring": {"level": env_str("LOG_LEVEL", "INFO")},
    },
}
