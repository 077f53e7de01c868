"""gunicorn settings for the benchmarks that run the app under gunicorn (bench/load.py); the Procfile runs uvicorn.

The access log (on when the command line asks for it, `--access-logfile -`) shows paths
without their query and without the tokens of share and seat links: see web/accesslog.py.
"""

from web.accesslog import ACCESS_LOG_FORMAT

access_log_format = ACCESS_LOG_FORMAT
logger_class = "web.accesslog.RedactingLogger"
