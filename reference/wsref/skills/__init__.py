"""skills/: SKILL.md discovery, the catalog, and the skill tools."""
from .local_skill_source import LocalSkillSource
from .schemas import SkillError
from .tools import create_skill_tools
from .workspace_skills import SKILL_SCOPE_DOCUMENT_PREFIX, WorkspaceSkills

__all__ = ["LocalSkillSource", "SKILL_SCOPE_DOCUMENT_PREFIX", "SkillError", "WorkspaceSkills", "create_skill_tools"]
