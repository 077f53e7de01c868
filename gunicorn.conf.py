"""gunicorn settings for every process that runs the app under gunicorn (Procfile, bench/load.py).

The access log (on when the command line asks for it, `--access-logfile -`) shows paths
without their query and without the tokens of share and seat links: see numapp/accesslog.py.
"""

from numapp.accesslog import ACCESS_LOG_FORMAT

access_log_format = ACCESS_LOG_FORMAT
logger_class = "numapp.accesslog.RedactingLogger"
