from django.utils.translation import gettext as _
from django.views.defaults import page_not_found
from rest_framework.renderers import JSONRenderer

from scoring.api.errors import error_response


def not_found(request, exception=None):
    """Answer 404 in JSON under /api/ (the API's error shape), as a page elsewhere."""
    if request.path.startswith("/api/"):
        message = _("Not found.")
        response = error_response([{"path": "", "code": "not_found", "message": message}], 404, message)
        response.accepted_renderer = JSONRenderer()
        response.accepted_media_type = "application/json"
        response.renderer_context = {}
        return response.render()
    return page_not_found(request, exception)
