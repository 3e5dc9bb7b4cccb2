#!/bin/bash
# Make the Jupyter server's Voila extension render pages with gopskit's own
# template (the stock "lab" page without its Font Awesome CDN links).
# Needs gopskit installed; postBuild runs it, tests/test_binder.py runs it
# with JUPYTER_CONFIG_DIR and JUPYTER_DATA_DIR pointing at a scratch folder.
set -e
here="$(cd "$(dirname "$0")" && pwd)"
# Voila looks for templates on the Jupyter data path: copy the package's one there.
template="$(python -c 'from gopskit.templates import TEMPLATE, template_root; print(template_root() / "voila" / "templates" / TEMPLATE)')"
templates="$(jupyter --data-dir)/voila/templates"
mkdir -p "$templates"
rm -rf "$templates/gopskit"
cp -r "$template" "$templates/gopskit"
# Voila's server extension reads voila.json from each Jupyter config folder:
# this one sets VoilaConfiguration.template.
config="$(jupyter --config-dir)"
mkdir -p "$config"
cp "$here/voila_template.json" "$config/voila.json"
echo "Voila template gopskit installed in $templates and chosen in $config/voila.json"
