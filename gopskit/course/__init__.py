"""The course: helpers and exercise checkers for the lesson notebooks in ``lessons/``.

Notebooks import and arrange; the logic lives here (docs/architecture.md). One module
per lesson holds that lesson's helpers (:mod:`.pure`, :mod:`.mixed`,
:mod:`.hidden`, :mod:`.variants`, :mod:`.classroom`), :mod:`.checks` holds
every exercise checker, :mod:`.feedback` the friendly verdicts they return,
:mod:`.plots` the lessons' small matplotlib figures and :mod:`.sync` keeps
the student notebooks in step with the teacher notebooks.
"""
