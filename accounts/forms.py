"""allauth's sign-up form, doing the same work whether the email has an account or not, and asking the name played under."""

from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.contrib.auth.hashers import make_password
from django.utils.translation import gettext_lazy as _

from accounts import services
from scoring.exceptions import InvalidInput


class SignupForm(AllauthSignupForm):
    """Sign-up that answers in the same time for an email that has an account.

    With ACCOUNT_PREVENT_ENUMERATION (allauth's default), an email that has an account
    gets the same page as a new one and a mail saying it has an account; but only a new
    account's password was hashed, so the answer came back in 73 ms instead of 2.3 s.
    Here the password is hashed (and thrown away) in that case too.

    It also asks, optionally, the name the person plays under: the seat of that name is
    theirs on every sheet that enters the account (« C'est moi » without a chore). The
    name stays private until they choose to show it on the leaderboards.
    """

    display_name = forms.CharField(
        label=_("Your name at the table (optional)"),
        required=False,
        max_length=40,
        help_text=_("The seat with this name is yours on your sheets. Only you see it."),
    )

    def clean_display_name(self):
        name = self.cleaned_data.get("display_name", "")
        try:
            services.display_name_check(name)
        except InvalidInput as exc:
            raise forms.ValidationError(exc.page_message()) from None
        return name

    def try_save(self, request):
        if self.account_already_exists:
            make_password(self.cleaned_data.get("password1"))  # the work a new account does; nothing is kept
        return super().try_save(request)

    def custom_signup(self, request, user):
        name = self.cleaned_data.get("display_name", "")
        if name.strip():
            services.profile_update(user=user, display_name=name, public=False)
