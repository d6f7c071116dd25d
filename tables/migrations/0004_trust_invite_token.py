import secrets

from django.db import migrations, models


def tokens_fill(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.filter(is_private=True, invite_token__isnull=True):
        table.invite_token = secrets.token_urlsafe(24)
        table.save(update_fields=["invite_token"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0003_lobby_matching_private_tables")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="invite_token",
            field=models.CharField(blank=True, max_length=64, null=True, unique=True),
        ),
        migrations.RunPython(tokens_fill, migrations.RunPython.noop),
    ]
