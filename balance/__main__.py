"""``python -m balance`` runs the command line."""

from balance.cli import cli

if __name__ == "__main__":
    cli()
