"""The collected static files: hashed names, compressed, and the scripts' module imports hashed too.

The pages' scripts are ES modules (static/js/): `import { NumWords } from "./words.js";`
names another file, which collectstatic renames `words.<hash>.js`. Django rewrites those
imports to the hashed names when asked (`support_js_module_import_aggregation`), so a
module and the page that loads it reach the same file, kept forever under its hash.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
