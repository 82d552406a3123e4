"""The FEVER vocabulary's types say what its values say."""

from typing import get_args

from fever_core.common import CHECK_SETTING, LABELS, Label, VerdictChoice


def test_the_label_type_names_the_three_labels_in_their_order():
    assert get_args(Label) == LABELS


def test_the_verdict_setting_takes_the_values_of_its_type():
    assert CHECK_SETTING["verdict"].choices == get_args(VerdictChoice) == ("learned", "rule")
